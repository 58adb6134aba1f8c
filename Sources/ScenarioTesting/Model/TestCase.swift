/// One `it` (or `pending`) a spec file declared.
///
/// ```lua
/// describe("Cache", { config = "app-tests", tags = { "fast" } }, function()
///   it("starts empty", function(c) expect(c:resolve("Cache"):count()).to_be(0) end)
/// end)
/// ```
/// declares a test named `Cache > starts empty`, tagged `fast`, run with a
/// fresh container of `app-tests`.
public struct TestCase: Sendable, Equatable {
    /// Its position in its file's declaration order (1-based, as Lua counts).
    public var index: Int
    /// The describe names and its own, joined by `" > "`.
    public var name: String
    /// The describe names and its own.
    public var path: [String]
    /// The spec file, as found (relative to where the run started, if it was given so).
    public var file: String
    /// The line of its `it` call.
    public var line: Int
    /// Its tags and those of the describes around it.
    public var tags: [String]
    /// The configuration it gets a fresh container of, if any.
    public var configuration: String?
    /// Its own time limit in seconds, if it set one.
    public var timeout: Double?
    /// Declared without a body, or with `pending`.
    public var isPending: Bool
    /// Where its `config` was given (`file:line` of its `it` or of the
    /// `describe` around it), if it was: a configuration that cannot be
    /// made is reported there.
    public var configurationPlace: String? = nil

    /// `file:line`.
    public var location: String { "\(file):\(line)" }
}
