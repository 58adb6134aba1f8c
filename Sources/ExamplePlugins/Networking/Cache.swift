import LuaBridge

/// An in-memory cache of loaded movies, shared by the loaders that use it.
public final class Cache: LuaExportable, @unchecked Sendable {
    public static let luaTypeName = "Cache"
    private var entries: [Int: String] = [:]

    public init() {}

    public func value(for id: Int) -> String? { entries[id] }
    public func store(_ value: String, for id: Int) { entries[id] = value }
    /// How many entries it holds.
    public var count: Int { entries.count }

    static var luaClass: LuaClass<Cache> {
        LuaClass<Cache>()
            .constructor { Cache() }
            .method("get") { (cache, id: Int) in cache.value(for: id) }
            .method("set") { (cache, id: Int, value: String) in cache.store(value, for: id) }
            .property("count") { $0.count }
            .tostring { "Cache(\($0.count) entries)" }
    }
}
