import FactoryRegistry
import FactoryhostSupport
import LuaBridge

/// Loads movies through a session, remembering them in a cache. One loader
/// per screen: loaders share the cache and the session, never their own
/// state — their pending requests, which they cancel when their screen's
/// scope closes (or when they are released).
/// Sendable, checked: its counts and requests live behind a lock (`Protected`) —
/// `scopeDidClose` comes from the thread that closes the scope.
public final class MovieLoader: LuaExportable, ScopeBound, Sendable {
    public static let luaTypeName = "MovieLoader"
    public let cache: Cache
    public let session: HTTPSession
    private struct State {
        var fetchCount = 0
        var requests: [StatefulRequest] = []
    }
    private let state = Protected(State())
    /// How many loads went to the session (cache misses).
    public var fetches: Int { state.withLock { $0.fetchCount } }

    public init(cache: Cache, session: HTTPSession) {
        self.cache = cache
        self.session = session
    }

    deinit { cancelAll() }

    /// The movie `id`, from the cache or fetched (and then cached).
    public func load(_ id: Int) throws -> String {
        if let cached = cache.value(for: id) { return cached }
        state.withLock { $0.fetchCount += 1 }
        let movie = try session.get("/movies/\(id)")          // not under the lock: it waits for the network
        cache.store(movie, for: id)
        return movie
    }

    /// Starts loading `id` in the background; the request stays this
    /// loader's until it finishes or the loader cancels it.
    public func start(_ id: Int) throws -> StatefulRequest {
        let request = try Request(path: "/movies/\(id)").makeStateful()
        state.withLock { state in
            // Finished ones go; another start's request not performed yet ("ready") stays.
            state.requests.removeAll { !["ready", "pending"].contains($0.currentState) }
            state.requests.append(request)
            state.fetchCount += 1
        }
        // Not under the lock: when no thread can be started, perform fetches right here, on the network.
        do {
            try request.perform(with: session)
        } catch {
            state.withLock { $0.requests.removeAll { $0 === request } }
            throw error
        }
        // A cancelAll between the append and the perform found it not yet pending, so could not cancel it.
        if !state.withLock({ $0.requests.contains { $0 === request } }) { request.cancel() }
        return request
    }

    /// Requests started and not yet finished.
    public var pendingCount: Int { state.withLock { $0.requests.filter(\.isPending).count } }

    /// Cancels every pending request.
    public func cancelAll() {
        let taken = state.withLock { state -> [StatefulRequest] in
            defer { state.requests.removeAll() }
            return state.requests
        }
        for request in taken { request.cancel() }
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
