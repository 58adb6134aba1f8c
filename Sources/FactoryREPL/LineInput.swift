import CLineEditor
import FactoryhostSupport

/// Where the REPL's lines come from.
public protocol LineInput: AnyObject {
    /// The next line (without its newline). `prompt` is shown first when
    /// the input is a terminal.
    func readLine(prompt: String) -> LineInputResult
    /// Remembers an entered chunk (history).
    func remember(_ entry: String)
}

public enum LineInputResult: Equatable {
    /// A line as read: its bytes, without the newline.
    case line([UInt8])
    /// Ctrl-C at the prompt: the line is dropped.
    case interrupted
    case end
}
