import FactoryhostSupport
import LuaBridge

/// An in-memory cache of loaded movies, shared by the loaders that use it (from any thread: it is a singleton).
/// `@unchecked Sendable`: `entries` is read and written only under `lock`.
public final class Cache: LuaExportable, @unchecked Sendable {
    public static let luaTypeName = "Cache"
    private let lock = Lock()
    private var entries: [Int: String] = [:]

    /// An empty cache.
    public init() {}

    /// The movie cached for `id`, if any.
    public func value(for id: Int) -> String? { lock.withLock { entries[id] } }
    /// Caches `value` for `id` (replacing what was there).
    public func store(_ value: String, for id: Int) { lock.withLock { entries[id] = value } }
    /// How many entries it holds.
    public var count: Int { lock.withLock { entries.count } }

    static var luaClass: LuaClass<Cache> {
        LuaClass<Cache>()
            .constructor { Cache() }
            .method("get") { (cache, id: Int) in cache.value(for: id) }
            .method("set") { (cache, id: Int, value: String) in cache.store(value, for: id) }
            .property("count") { $0.count }
            .tostring { "Cache(\($0.count) entries)" }
    }
}
