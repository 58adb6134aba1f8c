import FactoryRegistry
import Foundation

/// Records births, deaths and their order, across threads. (NSLock, a
/// pthread mutex, rather than Synchronization.Mutex: on Linux the latter
/// locks with raw futexes the thread sanitizer cannot see, so every use
/// would be reported as a race.)
final class Lifecycle: @unchecked Sendable {
    private let lock = NSLock()
    private var state: (alive: Int, built: [String: Int], died: [String]) = (0, [:], [])
    func born(_ name: String) { lock.withLock { state.alive += 1; state.built[name, default: 0] += 1 } }
    func died(_ name: String) { lock.withLock { state.alive -= 1; state.died.append(name) } }
    var alive: Int { lock.withLock { state.alive } }
    func built(_ name: String) -> Int { lock.withLock { state.built[name] ?? 0 } }
    var deaths: [String] { lock.withLock { state.died } }
}

class Tracked: @unchecked Sendable {
    let life: Lifecycle
    let tag: String
    init(_ life: Lifecycle, _ tag: String) {
        self.life = life
        self.tag = tag
        life.born(tag)
    }
    deinit { life.died(tag) }
}

final class Logger: Tracked, @unchecked Sendable {}
final class Cache: Tracked, @unchecked Sendable {}
final class HTTPSession: Tracked, @unchecked Sendable {}
final class Store: Tracked, @unchecked Sendable {
    let logger: Logger
    init(_ life: Lifecycle, logger: Logger) { self.logger = logger; super.init(life, "Store") }
}
final class MovieLoader: Tracked, @unchecked Sendable {
    let cache: Cache, session: HTTPSession
    init(_ life: Lifecycle, cache: Cache, session: HTTPSession) {
        self.cache = cache
        self.session = session
        super.init(life, "MovieLoader")
    }
}
final class ViewModel: Tracked, @unchecked Sendable {
    let a: MovieLoader, b: MovieLoader, store: Store
    init(_ life: Lifecycle, a: MovieLoader, b: MovieLoader, store: Store) {
        self.a = a
        self.b = b
        self.store = store
        super.init(life, "ViewModel")
    }
}
struct Token: Sendable { let value: Int }
final class User: Sendable { let name: String; init(_ name: String) { self.name = name } }
final class UserSession: Tracked, @unchecked Sendable {}

/// The 9-object graph: a view model holding two movie loaders (each with a
/// cache and a session) and a store with a logger.
func registerGraph9(_ configuration: Configuration, _ life: Lifecycle, storeScope: Scope = .transient) throws {
    try configuration.register(Logger.self) { _ in Logger(life, "Logger") }
    try configuration.register(Cache.self) { _ in Cache(life, "Cache") }
    try configuration.register(HTTPSession.self) { _ in HTTPSession(life, "HTTPSession") }
    try configuration.register(Store.self, scope: storeScope, dependencies: [.instance(Logger.self)]) { r in
        Store(life, logger: try r.resolve())
    }
    try configuration.register(MovieLoader.self, dependencies: [.instance(Cache.self), .instance(HTTPSession.self)]) { r in
        MovieLoader(life, cache: try r.resolve(), session: try r.resolve())
    }
    try configuration.register(ViewModel.self,
                               dependencies: [.instance(MovieLoader.self, label: "a"), .instance(MovieLoader.self, label: "b"),
                                              .instance(Store.self)]) { r in
        ViewModel(life, a: try r.resolve(), b: try r.resolve(), store: try r.resolve())
    }
}

/// Runs `body` and returns the RegistryError it throws (nil if none).
func registryError(_ body: () throws -> Void) -> RegistryError? {
    do { try body() } catch let error as RegistryError { return error } catch { return nil }
    return nil
}
