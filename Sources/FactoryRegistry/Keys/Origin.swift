/// Where a registration was made: a Swift file and line, or a script's.
///
/// ```swift
/// Origin(file: "app.lua", line: 12).description   // "app.lua:12"
/// ```
public struct Origin: Hashable, Sendable, CustomStringConvertible {
    /// The file (`app.lua`, `App/Setup.swift`).
    public let file: String
    /// The line, from 1.
    public let line: Int

    /// The origin `file`:`line`.
    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    /// The origin of the Swift code that called (via `#fileID`, `#line`).
    public static func here(_ file: String = #fileID, _ line: Int = #line) -> Origin {
        Origin(file: file, line: line)
    }

    /// `file:line` — a newline or carriage return in the file's name written
    /// `\n`, `\r`: a place starts a line of check's and the runner's output,
    /// and a name could otherwise forge a line of its own.
    public var description: String {
        guard file.utf8.contains(where: { $0 == 10 || $0 == 13 }) else { return "\(file):\(line)" }
        var shown = ""
        for character in file {
            switch character {
            case "\n": shown += "\\n"
            case "\r": shown += "\\r"
            case "\r\n": shown += "\\r\\n"
            default: shown.append(character)
            }
        }
        return shown + ":\(line)"
    }
}
