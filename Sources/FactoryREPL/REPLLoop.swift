#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The read-eval-print loop: prompts (`_PROMPT`, `_PROMPT2` for a chunk's
/// continuation lines), `:commands`, and lines handed to the session until
/// the input ends (Ctrl-D) or `:quit`.
public enum REPLLoop {
    /// Runs `session` on `input`; returns the exit status (0).
    public static func run(_ session: REPLSession, input: LineInput) -> Int32 {
        var pending: [String] = []
        while true {
            let prompt = session.prompt(continuation: !pending.isEmpty)
            switch input.readLine(prompt: prompt) {
            case .end:
                if !pending.isEmpty { _ = session.finishIncomplete(pending) }
                return 0
            case .interrupted:
                pending = []
            case .line(let line):
                let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
                if pending.isEmpty, trimmed.hasPrefix(":"), !trimmed.hasPrefix("::") {     // `::label::` is Lua
                    input.remember(line)
                    if !session.command(line) { return 0 }
                    continue
                }
                pending.append(line)
                if session.submit(pending) == .incomplete { continue }
                input.remember(pending.joined(separator: "\n"))
                pending = []
            }
        }
    }
}

extension REPLSession {
    /// The input ended inside an unfinished chunk: report its syntax error
    /// (as lua.c does with `<eof>`).
    func finishIncomplete(_ lines: [String]) -> Submission {
        if case .string(let message)? = (try? compileMessage(lines.joined(separator: "\n"))) ?? nil {
            output.error(message.description)
        }
        return .failed
    }
}
