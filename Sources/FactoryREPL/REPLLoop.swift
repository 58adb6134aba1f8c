import FactoryhostSupport

/// The read-eval-print loop: prompts (`_PROMPT`, `_PROMPT2` for a chunk's
/// continuation lines), `:commands`, and lines handed to the session until
/// the input ends (Ctrl-D) or `:quit`.
public enum REPLLoop {
    /// Runs `session` on `input`; returns the exit status (0).
    public static func run(_ session: REPLSession, input: LineInput) -> Int32 {
        var pending: [[UInt8]] = []
        while true {
            let prompt = session.prompt(continuation: !pending.isEmpty)
            switch input.readLine(prompt: prompt) {
            case .end:
                if !pending.isEmpty { _ = session.finishIncomplete(pending) }
                return 0
            case .interrupted:
                pending = []
            case .line(let line):
                let trimmed = line.drop(while: { $0 == 32 || $0 == 9 })
                if pending.isEmpty, trimmed.first == 58, !trimmed.starts(with: [58, 58]) {     // ':', but `::label::` is Lua
                    let text = String(decoding: line, as: UTF8.self)
                    input.remember(text)
                    if !session.command(bytes: line) { return 0 }
                    continue
                }
                pending.append(line)
                if session.submit(bytes: pending) == .incomplete { continue }
                input.remember(String(decoding: Array(pending.joined(separator: [10])), as: UTF8.self))
                pending = []
            }
        }
    }
}

extension REPLSession {
    /// The input ended inside an unfinished chunk: report its syntax error
    /// (as lua.c does with `<eof>`).
    func finishIncomplete(_ lines: [[UInt8]]) -> Submission {
        if case .string(let message)? = (try? compileMessage(Array(lines.joined(separator: [10])))) ?? nil {
            output.error(message.description)
        }
        return .failed
    }
}
