import FactoryhostSupport
import LuaBridge

/// What to fetch — immutable, shareable (the article's `Request`). Performing
/// it never changes it: each perform makes a fresh ``StatefulRequest``.
///
/// ```lua
/// local request = net.Request.new "/movies/1"
/// local running = request:makeStateful()    -- one per perform
/// ```
public final class Request: LuaExportable, Sendable {
    public static let luaTypeName = "Request"
    public let path: String
    public init(path: String) throws {
        guard path.hasPrefix("/") else { throw LuaError(.runtime, "a request path starts with '/' (got '\(path)')") }
        self.path = path
    }

    /// The private, stateful form of this request, for one perform.
    public func makeStateful() -> StatefulRequest { StatefulRequest(request: self) }

    static var luaClass: LuaClass<Request> {
        LuaClass<Request>()
            .constructor { (path: String) in try Request(path: path) }
            .method("makeStateful") { (request: Request) in request.makeStateful() }
            .property("path") { $0.path }
            .tostring { "Request(\($0.path))" }
    }
}

/// One perform of a ``Request``: its state (`ready`, `pending`, `done`,
/// `failed`, `cancelled`) and its result, filled in by a background thread.
// @unchecked Sendable: a worker thread finishes it while the host thread reads it; `state`, `body`, `failure`
// and `get` are read and written only under `lock` (`wait`'s predicate runs with it held).
public final class StatefulRequest: LuaExportable, @unchecked Sendable {
    public static let luaTypeName = "StatefulRequest"
    public let request: Request
    private let lock = ConditionLock()
    private var state = "ready"
    private var body: String?
    private var failure: String?
    private var get: HTTPGet?

    init(request: Request) { self.request = request }

    /// Starts fetching through `session`: at once for a fixture session, on a
    /// background thread for HTTP.
    public func perform(with session: HTTPSession) throws {
        try lock.withLock {
            guard state == "ready" else {
                throw LuaError(.runtime, "this StatefulRequest was already performed (\(state)): make a new one with request:makeStateful()")
            }
            state = "pending"
        }
        guard session.isHTTP else {
            finish(body: session.fixture(for: request.path), failure: nil)
            return
        }
        let get = HTTPGet()
        lock.withLock { self.get = get }
        let url = session.baseURL + request.path
        Threads.detach { [self] in
            do {
                let (status, text) = try get.run(url)
                if status == 200 {
                    finish(body: text, failure: nil)
                } else {
                    finish(body: nil, failure: "GET \(url): HTTP \(status) \(text)")
                }
            } catch is HTTPGet.Cancelled {
                finish(body: nil, failure: nil, cancelled: true)
            } catch {
                finish(body: nil, failure: String(describing: error))
            }
        }
    }

    private func finish(body: String?, failure: String?, cancelled: Bool = false) {
        lock.withLock {
            if state == "pending" {
                state = cancelled ? "cancelled" : (failure == nil ? "done" : "failed")
                self.body = body
                self.failure = failure
            }
            get = nil
        }
        lock.signal()
    }

    /// Cancels it if it is still pending.
    public func cancel() {
        let get = lock.withLock { () -> HTTPGet? in
            guard state == "pending" else { return nil }
            state = "cancelled"
            return self.get
        }
        get?.cancel()
        lock.signal()
    }

    public var currentState: String { lock.withLock { state } }
    public var isPending: Bool { currentState == "pending" }

    /// Waits up to `seconds` for the result: the body, or an error saying
    /// why there is none (failed, cancelled, still pending).
    public func wait(seconds: Double) throws -> String {
        _ = lock.wait(seconds: seconds) { state != "pending" }
        return try lock.withLock {
            switch state {
            case "done": return body ?? ""
            case "cancelled": throw LuaError(.runtime, "\(request.path): the request was cancelled")
            case "failed": throw LuaError(.runtime, failure ?? "\(request.path): failed")
            case "pending": throw LuaError(.runtime, "\(request.path): still pending after \(seconds) s")
            default: throw LuaError(.runtime, "\(request.path): the request was never performed")
            }
        }
    }

    static var luaClass: LuaClass<StatefulRequest> {
        LuaClass<StatefulRequest>()
            .method("perform") { (request, session: HTTPSession) in try request.perform(with: session) }
            .method("wait") { (request, seconds: Double?) in
                let seconds = seconds ?? 5
                guard (0...3600).contains(seconds) else {
                    throw LuaError(.runtime, "StatefulRequest:wait: seconds must be between 0 and 3600 (got \(seconds))")
                }
                return try request.wait(seconds: seconds)
            }
            .method("cancel") { (request: StatefulRequest) in request.cancel() }
            .property("state") { $0.currentState }
            .property("request") { $0.request }
            .tostring { "StatefulRequest(\($0.request.path), \($0.currentState))" }
    }
}

/// Performs requests through a session — each perform on a fresh stateful
/// request, so two performs of one request never share state.
public final class DataLoader: LuaExportable, Sendable {
    public static let luaTypeName = "DataLoader"
    public let session: HTTPSession
    public init(session: HTTPSession) { self.session = session }

    public func perform(_ request: Request) throws -> StatefulRequest {
        let stateful = request.makeStateful()
        try stateful.perform(with: session)
        return stateful
    }

    static var luaClass: LuaClass<DataLoader> {
        LuaClass<DataLoader>()
            .constructor { (session: HTTPSession) in DataLoader(session: session) }
            .method("perform") { (loader, request: Request) in try loader.perform(request) }
            .property("session") { $0.session }
    }
}

/// Holds what loaders share (the cache, the session) and makes one
/// ``MovieLoader`` per screen — the article's replacement for a singleton loader.
public final class MovieLoaderFactory: LuaExportable, Sendable {
    public static let luaTypeName = "MovieLoaderFactory"
    public let cache: Cache
    public let session: HTTPSession
    public init(cache: Cache, session: HTTPSession) {
        self.cache = cache
        self.session = session
    }

    public func makeMovieLoader() -> MovieLoader { MovieLoader(cache: cache, session: session) }

    static var luaClass: LuaClass<MovieLoaderFactory> {
        LuaClass<MovieLoaderFactory>()
            .constructor { (cache: Cache, session: HTTPSession) in MovieLoaderFactory(cache: cache, session: session) }
            .method("makeMovieLoader") { (factory: MovieLoaderFactory) in factory.makeMovieLoader() }
            .property("cache") { $0.cache }
            .property("session") { $0.session }
    }
}
