import FactoryRegistry
import LuaBridge

/// Loads movies through a session, remembering them in a cache. One loader
/// per screen: loaders share the cache and the session, never their own
/// state — their pending requests, which they cancel when their screen's
/// scope closes (or when they are released).
public final class MovieLoader: LuaExportable, ScopeBound, @unchecked Sendable {
    public static let luaTypeName = "MovieLoader"
    public let cache: Cache
    public let session: HTTPSession
    /// How many loads went to the session (cache misses).
    public private(set) var fetches = 0
    private var requests: [StatefulRequest] = []

    public init(cache: Cache, session: HTTPSession) {
        self.cache = cache
        self.session = session
    }

    deinit { cancelAll() }

    /// The movie `id`, from the cache or fetched (and then cached).
    public func load(_ id: Int) throws -> String {
        if let cached = cache.value(for: id) { return cached }
        fetches += 1
        let movie = try session.get("/movies/\(id)")
        cache.store(movie, for: id)
        return movie
    }

    /// Starts loading `id` in the background; the request stays this
    /// loader's until it finishes or the loader cancels it.
    public func start(_ id: Int) throws -> StatefulRequest {
        let request = try Request(path: "/movies/\(id)").makeStateful()
        requests.removeAll { !$0.isPending }
        requests.append(request)
        fetches += 1
        try request.perform(with: session)
        return request
    }

    /// Requests started and not yet finished.
    public var pendingCount: Int { requests.filter(\.isPending).count }

    /// Cancels every pending request.
    public func cancelAll() {
        for request in requests { request.cancel() }
        requests.removeAll()
    }

    public func scopeDidClose() { cancelAll() }

    static var luaClass: LuaClass<MovieLoader> {
        LuaClass<MovieLoader>()
            .constructor { (cache: Cache, session: HTTPSession) in MovieLoader(cache: cache, session: session) }
            .method("load") { (loader, id: Int) in try loader.load(id) }
            .method("start") { (loader, id: Int) in try loader.start(id) }
            .method("cancelAll") { (loader: MovieLoader) in loader.cancelAll() }
            .property("cache") { $0.cache }
            .property("session") { $0.session }
            .property("fetches") { $0.fetches }
            .property("pendingCount") { $0.pendingCount }
    }
}
