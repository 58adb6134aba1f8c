import LuaBridge

/// Loads movies through a session, remembering them in a cache. One loader
/// per screen: loaders never share state but the cache.
public final class MovieLoader: LuaExportable, @unchecked Sendable {
    public static let luaTypeName = "MovieLoader"
    public let cache: Cache
    public let session: HTTPSession
    /// How many loads went to the session (cache misses).
    public private(set) var fetches = 0

    public init(cache: Cache, session: HTTPSession) {
        self.cache = cache
        self.session = session
    }

    /// The movie `id`, from the cache or "fetched" from the session.
    public func load(_ id: Int) -> String {
        if let cached = cache.value(for: id) { return cached }
        fetches += 1
        let movie = "movie \(id) from \(session.baseURL)"
        cache.store(movie, for: id)
        return movie
    }

    static var luaClass: LuaClass<MovieLoader> {
        LuaClass<MovieLoader>()
            .constructor { (cache: Cache, session: HTTPSession) in MovieLoader(cache: cache, session: session) }
            .method("load") { (loader, id: Int) in loader.load(id) }
            .property("cache") { $0.cache }
            .property("session") { $0.session }
            .property("fetches") { $0.fetches }
    }
}
