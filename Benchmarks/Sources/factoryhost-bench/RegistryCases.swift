import Dispatch
import FactoryRegistry
import Swinject

// MARK: - The 9-object graph: a view model holding two movie loaders (each with
// a cache and an HTTP session) and a store with a logger.

final class Logger: Sendable {}
final class Cache: Sendable {}
final class HTTPSession: Sendable {}
final class Store: Sendable { let logger: Logger; init(logger: Logger) { self.logger = logger } }
final class MovieLoader: Sendable {
    let cache: Cache, session: HTTPSession
    init(cache: Cache, session: HTTPSession) { self.cache = cache; self.session = session }
}
final class ViewModel: Sendable {
    let a: MovieLoader, b: MovieLoader, store: Store
    init(a: MovieLoader, b: MovieLoader, store: Store) { self.a = a; self.b = b; self.store = store }
}
final class Unrelated: Sendable {}
final class Pizza: Sendable {
    let radius: Double, ingredients: [String], slices: Int
    init(radius: Double, ingredients: [String], slices: Int) { self.radius = radius; self.ingredients = ingredients; self.slices = slices }
}

@inline(never)
func handGraph9() -> ViewModel {
    ViewModel(a: MovieLoader(cache: Cache(), session: HTTPSession()),
              b: MovieLoader(cache: Cache(), session: HTTPSession()),
              store: Store(logger: Logger()))
}

func factoryhostContainer(unrelated: Int = 0) throws -> FactoryRegistry.Container {
    let registry = Registry()
    let app = try registry.defineConfiguration("app")
    try app.register(Logger.self) { _ in Logger() }
    try app.register(Cache.self) { _ in Cache() }
    try app.register(HTTPSession.self) { _ in HTTPSession() }
    try app.register(Store.self, dependencies: [.instance(Logger.self)]) { r in Store(logger: try r.resolve()) }
    try app.register(MovieLoader.self, dependencies: [.instance(Cache.self), .instance(HTTPSession.self)]) { r in
        MovieLoader(cache: try r.resolve(), session: try r.resolve())
    }
    try app.register(ViewModel.self, dependencies: [.instance(MovieLoader.self), .instance(Store.self)]) { r in
        ViewModel(a: try r.resolve(), b: try r.resolve(), store: try r.resolve())
    }
    try app.register(Logger.self, name: "shared", scope: .singleton) { _ in Logger() }
    try app.register(Pizza.self, arguments: ("radius", Double.self), ("ingredients", [String].self), ("slices", Int.self)) { _, r, i, s in
        Pizza(radius: r, ingredients: i, slices: s)
    }
    for i in 0..<unrelated {
        try app.register(Unrelated.self, name: "u\(i)") { _ in Unrelated() }
    }
    return try registry.container("app")
}

func swinjectContainer(unrelated: Int = 0) -> Swinject.Container {
    let c = Swinject.Container()
    c.register(Logger.self) { _ in Logger() }.inObjectScope(.transient)
    c.register(Cache.self) { _ in Cache() }.inObjectScope(.transient)
    c.register(HTTPSession.self) { _ in HTTPSession() }.inObjectScope(.transient)
    c.register(Store.self) { r in Store(logger: r.resolve(Logger.self)!) }.inObjectScope(.transient)
    c.register(MovieLoader.self) { r in
        MovieLoader(cache: r.resolve(Cache.self)!, session: r.resolve(HTTPSession.self)!)
    }.inObjectScope(.transient)
    c.register(ViewModel.self) { r in
        ViewModel(a: r.resolve(MovieLoader.self)!, b: r.resolve(MovieLoader.self)!, store: r.resolve(Store.self)!)
    }.inObjectScope(.transient)
    c.register(Logger.self, name: "shared") { _ in Logger() }.inObjectScope(.container)
    c.register(Pizza.self) { (_: Swinject.Resolver, r: Double, i: [String], s: Int) in
        Pizza(radius: r, ingredients: i, slices: s)
    }.inObjectScope(.transient)
    for i in 0..<unrelated {
        c.register(Unrelated.self, name: "u\(i)") { _ in Unrelated() }.inObjectScope(.transient)
    }
    return c
}

func registryCases() throws -> [CaseResult] {
    let fh = try factoryhostContainer()
    let sw = swinjectContainer()
    var results: [CaseResult] = []

    let (host, lua) = try luaGraph9Container()
    let graph9 = try measureInterleavedSamples([
        ("hand", { consume(handGraph9()) }),
        ("factoryhost", { consume(try fh.resolve(ViewModel.self)) }),
        ("lua", { consume(try lua.resolve(ViewModel.self)) }),
        ("swinject", { consume(sw.resolve(ViewModel.self)) }),
    ])
    withExtendedLifetime(host) {}
    var graph9Result = CaseResult(name: "graph9", contenders: graph9.map { ($0.0, median($0.1)) })
    graph9Result.samples = Dictionary(uniqueKeysWithValues: graph9)
    results.append(graph9Result)

    let handSingleton = Logger()
    results.append(CaseResult(name: "singleton", contenders: try measureInterleaved([
        ("hand", { consume(handSingleton) }),
        ("factoryhost", { consume(try fh.resolve(Logger.self, name: "shared")) }),
        ("swinject", { consume(sw.resolve(Logger.self, name: "shared")) }),
    ])))

    let ingredients = ["basil", "mozzarella"]
    results.append(CaseResult(name: "assisted3", contenders: try measureInterleaved([
        ("hand", { consume(Pizza(radius: 30, ingredients: ingredients, slices: 8)) }),
        ("factoryhost", { consume(try fh.resolve(Pizza.self, arguments: 30.0, ingredients, 8)) }),
        ("swinject", { consume(sw.resolve(Pizza.self, arguments: 30.0, ingredients, 8)) }),
    ])))

    // regs10 and regs10000 in one interleaved run, so their ratio is fair too.
    let fh10 = try factoryhostContainer(unrelated: 10), fh10k = try factoryhostContainer(unrelated: 10_000)
    let sw10 = swinjectContainer(unrelated: 10), sw10k = swinjectContainer(unrelated: 10_000)
    let regs = try measureInterleaved([
        ("fh10", { consume(try fh10.resolve(ViewModel.self)) }),
        ("fh10k", { consume(try fh10k.resolve(ViewModel.self)) }),
        ("sw10", { consume(sw10.resolve(ViewModel.self)) }),
        ("sw10k", { consume(sw10k.resolve(ViewModel.self)) }),
    ])
    results.append(CaseResult(name: "regs10", contenders: [("factoryhost", regs[0].1), ("swinject", regs[2].1)]))
    results.append(CaseResult(name: "regs10000", contenders: [("factoryhost", regs[1].1), ("swinject", regs[3].1)]))

    for threads in [1, 8] {
        var result = CaseResult(name: "threads\(threads)")
        result.add("factoryhost", try threaded(threads) { consume(try fh.resolve(ViewModel.self)) })
        results.append(result)
    }
    return results
}

/// Wall-clock ns per operation per thread, with `threads` threads each
/// running `body` in a loop on one shared container (median of 5 runs).
func threaded(_ threads: Int, _ body: @Sendable @escaping () throws -> Void) throws -> Double {
    let perThread = 100_000
    var samples: [Double] = []
    for _ in 0..<5 {
        let start = now()
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<perThread { try? body() }
        }
        samples.append(Double(now() - start) / Double(perThread))
    }
    samples.sort()
    return samples[samples.count / 2]
}
