import FactoryhostSupport

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

    /// The tags as reports show them: as many as fit about 2 KB, then how
    /// many more (100,000 tags made a 1 MB line; `--tag` still reads them all).
    public var shownTags: [String] {
        var shown: [String] = [], size = 0
        for tag in tags {
            guard size + tag.utf8.count <= 2_048 else {
                shown.append("… \(tags.count - shown.count) more")
                break
            }
            shown.append(tag)
            size += tag.utf8.count
        }
        return shown
    }

    /// The name as reports show it: at most about 2 KB, its start and its end
    /// (each describe's name is cut, but 150 nested ones made 41 KB lines;
    /// `--filter` still reads the whole name).
    public var shownName: String { MessageText.bounded(name, limit: 2_048) }

    /// The path as reports show it: the describes from the outermost while
    /// they fit about 2 KB, how many were left out, and its own name.
    public var shownPath: [String] {
        guard path.reduce(0, { $0 + $1.utf8.count }) > 2_048, let last = path.last else { return path }
        var shown: [String] = [], size = last.utf8.count
        for part in path.dropLast() {
            guard size + part.utf8.count <= 2_048 else { break }
            shown.append(part)
            size += part.utf8.count
        }
        return shown + ["… (\(path.count - 1 - shown.count) describes left out) …", last]
    }
}
