import FactoryhostSupport
import LuaBridge

/// An in-memory cache of loaded movies, shared by the loaders that use it (from any thread: it is a singleton).
/// Its entries live behind a lock (`Protected`), so the compiler checks that it is `Sendable`.
public final class Cache: LuaExportable, Sendable {
    public static let luaTypeName = "Cache"
    private let entries = Protected<[Int: String]>([:])

    /// An empty cache.
    public init() {}

    /// The movie cached for `id`, if any.
    public func value(for id: Int) -> String? { entries.withLock { $0[id] } }
    /// Caches `value` for `id` (replacing what was there).
    public func store(_ value: String, for id: Int) { entries.withLock { $0[id] = value } }
    /// How many entries it holds.
    public var count: Int { entries.withLock { $0.count } }

    static var luaClass: LuaClass<Cache> {
        LuaClass<Cache>()
            .constructor { Cache() }
            .method("get") { (cache, id: Int) in cache.value(for: id) }
            .method("set") { (cache, id: Int, value: String) in cache.store(value, for: id) }
            .property("count") { $0.count }
            .tostring { "Cache(\($0.count) entries)" }
    }
}
