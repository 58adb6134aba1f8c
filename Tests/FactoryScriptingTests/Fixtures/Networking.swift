import LuaBridge

// The networking fixture's types: a cache, a session that answers from fixtures
// (it never connects), and a loader over both.

/// Movies by id. Not `Sendable`: the core's tests use a cache on one thread only.
final class Cache: LuaExportable {
    static let luaTypeName = "Cache"
    private var entries: [Int: String] = [:]

    /// The movie cached for `id`, if any.
    func value(for id: Int) -> String? { entries[id] }
    /// Caches `value` for `id` (replacing what was there).
    func store(_ value: String, for id: Int) { entries[id] = value }
    /// How many entries it holds.
    var count: Int { entries.count }

    static var luaClass: LuaClass<Cache> {
        LuaClass<Cache>().constructor { Cache() }
    }
}

/// Where a loader's movies come from: `movie <id> from <baseURL>`, made up, never fetched.
final class HTTPSession: LuaExportable, Sendable {
    static let luaTypeName = "HTTPSession"
    let baseURL: String

    init(baseURL: String) { self.baseURL = baseURL }

    static var luaClass: LuaClass<HTTPSession> {
        LuaClass<HTTPSession>()
            .namedConstructor { HTTPSession(baseURL: try $0.required("baseURL")) }
            .property("baseURL") { $0.baseURL }
    }
}

/// Loads movies through a session, remembering them in a cache. Not `Sendable`: it counts its fetches
/// unguarded (the core's tests use a loader on one thread only).
final class MovieLoader: LuaExportable {
    static let luaTypeName = "MovieLoader"
    let cache: Cache
    let session: HTTPSession
    /// How many loads missed the cache.
    private(set) var fetches = 0

    init(cache: Cache, session: HTTPSession) {
        self.cache = cache
        self.session = session
    }

    /// The movie `id`, from the cache or from the session (and then cached).
    func load(_ id: Int) -> String {
        if let cached = cache.value(for: id) { return cached }
        fetches += 1
        let movie = "movie \(id) from \(session.baseURL)"
        cache.store(movie, for: id)
        return movie
    }

    /// Cancels the pending loads: none, as every load finishes before it returns. (Kept for what
    /// `describe` says of a method that takes no arguments and returns nothing.)
    func cancelAll() {}

    static var luaClass: LuaClass<MovieLoader> {
        LuaClass<MovieLoader>()
            .constructor { (cache: Cache, session: HTTPSession) in MovieLoader(cache: cache, session: session) }
            .method("load") { (loader, id: Int) in loader.load(id) }
            .method("cancelAll") { (loader: MovieLoader) in loader.cancelAll() }
            .property("cache") { $0.cache }
            .property("session") { $0.session }
            .property("fetches") { $0.fetches }
    }
}
