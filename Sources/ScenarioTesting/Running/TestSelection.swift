import FactoryRegistry
import FactoryScripting
import LuaBridge
import LuaInterpreter

/// Which tests a run keeps: a test is kept if its full name
/// (`"describe > it"`) contains one of `texts` or matches one of `patterns`
/// (all are kept if both are empty), and its tags allow it.
public struct TestSelection: Sendable {
    /// Plain text (`--filter`): `app-tests` matches `app-tests`, hyphen and all.
    public var texts: [String] = []
    /// Lua patterns (`--filter-pattern`).
    public var patterns: [String] = []
    /// A test is kept only if it has one of these (all kept if empty).
    public var tags: [String] = []
    /// A test with any of these is dropped.
    public var excludedTags: [String] = []

    /// A selection by text (`--filter`), Lua pattern (`--filter-pattern`), and tags kept and dropped.
    public init(texts: [String] = [], patterns: [String] = [], tags: [String] = [], excludedTags: [String] = []) {
        self.texts = texts
        self.patterns = patterns
        self.tags = tags
        self.excludedTags = excludedTags
    }
}
