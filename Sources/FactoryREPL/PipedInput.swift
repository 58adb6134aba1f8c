import CLineEditor
import FactoryhostSupport

/// Standard input that is not a terminal: no prompts, no editing — each
/// line read as typed, so sessions can be scripted.
public final class PipedInput: LineInput {
    private var buffered: [UInt8] = []
    private var ended = false
    private let showsPrompts: Bool

    /// `showsPrompts`: write each prompt before reading its line (a
    /// terminal without libedit).
    public init(showsPrompts: Bool = false) {
        self.showsPrompts = showsPrompts
    }

    /// The next line's bytes as they are (a `\r` before the newline dropped):
    /// bytes that are not UTF-8 reach Lua unchanged, as under lua5.4.
    public func readLine(prompt: String) -> LineInputResult {
        if showsPrompts && !ended && !buffered.contains(10) {
            print(prompt, terminator: "")
            fflush(nil)
        }
        while true {
            if let newline = buffered.firstIndex(of: 10) {
                var line = Array(buffered[..<newline])
                buffered.removeSubrange(...newline)
                if line.last == 13 { line.removeLast() }
                return .line(line)
            }
            if ended {
                guard !buffered.isEmpty else { return .end }
                defer { buffered = [] }
                return .line(buffered.last == 13 ? Array(buffered.dropLast()) : buffered)
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count: Int
            if showsPrompts {
                // A terminal: Ctrl-C drops the line, as with libedit (the
                // terminal discards what was typed), instead of ending the session.
                var interrupted: Int32 = 0
                count = fh_read_interruptible(0, &chunk, chunk.count, &interrupted)
                if interrupted != 0 {
                    buffered = []
                    print("")
                    return .interrupted
                }
            } else {
                count = POSIX.retryingInterrupts { read(0, &chunk, chunk.count) }
            }
            if count <= 0 {
                if showsPrompts && !ended { print("") }     // Ctrl-D: end the prompt's line, as lua5.4 does
                ended = true
                continue
            }
            buffered += chunk[..<count]
        }
    }

    public func remember(_ entry: String) {}
}
