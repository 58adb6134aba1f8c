/// Where a registration was made: a Swift file and line, or a script's.
///
/// ```swift
/// Origin(file: "app.lua", line: 12).description   // "app.lua:12"
/// ```
public struct Origin: Hashable, Sendable, CustomStringConvertible {
    public let file: String
    public let line: Int

    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    /// The origin of the Swift code that called (via `#fileID`, `#line`).
    public static func here(_ file: String = #fileID, _ line: Int = #line) -> Origin {
        Origin(file: file, line: line)
    }

    public var description: String { "\(file):\(line)" }
}
