import Dispatch
import Testing
@testable import FactoryRegistry

/// API misuse that must end in a clear error, never a crash or a leak.
@Suite("Misuse of the Swift API fails cleanly")
struct MisuseTests {
    let life = Lifecycle()
    let registry = Registry()

    /// A transient whose factory closes its container is not handed out, on
    /// the typed fast path too (a closed container returned it).
    @Test func aTransientThatClosesItsContainerIsNotHandedOut() throws {
        final class Holder: @unchecked Sendable { var container: Container? }
        let holder = Holder()
        let app = try registry.defineConfiguration("app")
        try app.register(Cache.self) { _ in
            try holder.container?.close()
            return Cache(life, "Cache")
        }
        try app.register(Logger.self, dependencies: [.instance(Cache.self)]) { r in
            _ = try r.resolve(Cache.self)
            return Logger(life, "Logger")
        }
        for key in ["Cache", "Logger"] {
            let container = try registry.container("app")
            holder.container = container
            let error = registryError {
                if key == "Cache" { _ = try container.resolve(Cache.self) } else { _ = try container.resolve(Logger.self) }
            }
            #expect(error?.kind == .containerClosed && error?.message.contains("cannot hand out Cache") == true, "\(key): \(String(describing: error))")
        }
        #expect(life.built("Logger") == 0)
    }

    @Test func aResolverKeptPastItsFactoryIsRefused() throws {
        final class LazyCache: @unchecked Sendable {
            let get: () throws -> Cache
            init(_ get: @escaping () throws -> Cache) { self.get = get }
        }
        let app = try registry.defineConfiguration("app")
        try app.register(Cache.self) { _ in Cache(life, "Cache") }
        try app.register(LazyCache.self, dependencies: [.instance(Cache.self)]) { r in LazyCache { try r.resolve() } }
        let lazy = try registry.container("app").resolve(LazyCache.self)
        // Several resolves in between, so the dead frame's address is likely reused.
        for _ in 0..<3 { _ = try registry.container("app").resolve(Cache.self) }
        let error = registryError { _ = try lazy.get() }
        #expect(error?.kind == .resolverExpired)
        #expect(error?.message == "a Resolver was used after its factory returned, or on another thread")
    }

    @Test func aResolverUsedOnAnotherThreadIsRefused() throws {
        final class Box: @unchecked Sendable { var error: RegistryError?; var resolver: Resolver? }
        let box = Box()
        let app = try registry.defineConfiguration("app")
        try app.register(Cache.self) { _ in Cache(life, "Cache") }
        try app.register(Logger.self, dependencies: [.instance(Cache.self)]) { r in
            // Swift 6 refuses to send a Resolver to another thread; smuggle it.
            box.resolver = r
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                box.error = registryError { _ = try box.resolver?.resolve(Cache.self) }
                done.signal()
            }
            done.wait()
            return Logger(life, "Logger")
        }
        _ = try registry.container("app").resolve(Logger.self)
        #expect(box.error?.kind == .resolverExpired)
    }

    @Test func aFactorySubclassCannotClaimToBeTyped() throws {
        final class Pretender: AnyFactory, @unchecked Sendable {
            override func make(_ resolver: Resolver, _ arguments: Arguments) throws -> Any { "not a cache" }
        }
        let app = try registry.defineConfiguration("app")
        try app.add(Registration(key: ServiceKey(Cache.self), origin: Origin(file: "x.swift", line: 1), factory: Pretender()))
        #expect(!Pretender().isTyped)
        #expect(registryError { _ = try registry.container("app").resolve(Cache.self) }?.kind == .wrongType)
    }

    @Test func recursionThroughProvidersFailsInsteadOfOverflowing() throws {
        final class Node: @unchecked Sendable {
            let child: Node?
            init(child: Node?) { self.child = child }
        }
        let app = try registry.defineConfiguration("app")
        try app.register(Node.self, dependencies: [.provider(Node.self)]) { r in
            let child: Provider<Node> = try r.provider()
            return Node(child: try child())
        }
        #expect(registry.validate().isEmpty)     // providers are lazy: no cycle to report statically
        // The provider resolves Node again, with nothing different: that is a cycle, found at once.
        let error = registryError { _ = try registry.container("app").resolve(Node.self) }
        #expect(error?.kind == .cycle)
        #expect(error?.message == "dependency cycle: Node → Node")
        // With a runtime argument the recursion might end, so it runs — into the stack guard.
        final class Box: @unchecked Sendable { weak var container: Container? }
        let box = Box()
        let deep = try registry.defineConfiguration("deep")
        try deep.register(Node.self, argument: ("level", Int.self)) { _, level in
            Node(child: try box.container?.resolve(Node.self, argument: level + 1))
        }
        let c = try registry.container("deep")
        box.container = c
        #expect(registryError { _ = try c.resolve(Node.self, argument: 0) }?.kind == .tooDeep)
    }

    /// An error naming what is defined names a few, then how many (attack
    /// 13: 30,000 configurations made each error a 229 KB string).
    @Test func errorsListAFewNamesAndHowManyInAll() throws {
        for index in 0..<3_000 { _ = try registry.defineConfiguration("c\(index)") }
        for index in 0..<3_000 { try registry.declareScope("s\(index)") }
        let unknown = registryError { _ = try registry.container("nope") }
        #expect(unknown?.details.first == "defined: " + (0..<20).map { "c\($0)" }.joined(separator: ", ") + ", … (3000 in all)",
                "\(String(describing: unknown?.details))")
        let container = try registry.container("c0")
        let scope = registryError { _ = try container.openScope("nope") }
        #expect((scope?.description.utf8.count ?? .max) < 1_000 && scope?.description.contains("… (3000 in all)") == true,
                "\(String(describing: scope))")
    }

    /// A closed container hands out no provider, as it builds nothing (it
    /// returned one that refused only when called).
    @Test func aClosedContainerRefusesToMakeAProvider() throws {
        let app = try registry.defineConfiguration("app")
        try app.register(Cache.self) { _ in Cache(life, "Cache") }
        let container = try registry.container("app")
        _ = try container.provider(Cache.self)
        try container.close()
        let typed = registryError { _ = try container.provider(Cache.self) }
        let untyped = registryError { _ = try container.anyProvider(ServiceKey(Cache.self)) }
        for error in [typed, untyped] {
            #expect(error?.kind == .containerClosed && error?.message.contains("cannot make a provider of Cache") == true,
                    "\(String(describing: error))")
        }
    }

    @Test func aSingletonKeepingAProviderDoesNotKeepItsContainer() throws {
        final class Coordinator: @unchecked Sendable {
            let make: Provider<Cache>
            init(_ make: Provider<Cache>) { self.make = make }
        }
        let app = try registry.defineConfiguration("app")
        try app.register(Cache.self) { _ in Cache(life, "Cache") }
        try app.register(Coordinator.self, scope: .singleton, dependencies: [.provider(Cache.self)]) { r in
            Coordinator(try r.provider())
        }
        weak var weakContainer: Container?
        var kept: Coordinator?
        do {
            let container = try registry.container("app")
            weakContainer = container
            kept = try container.resolve(Coordinator.self)
            #expect(try kept?.make().tag == "Cache")
        }
        #expect(weakContainer == nil)
        let late = registryError { _ = try kept?.make() }
        #expect(late?.message == "a provider was called after its container was released")
        #expect(late?.kind == .containerClosed)
    }

    @Test func aSingletonsProviderUsesTheScopesOpenWhenCalled() throws {
        final class Coordinator: @unchecked Sendable {
            let make: Provider<UserSession>
            init(_ make: Provider<UserSession>) { self.make = make }
        }
        try registry.declareScope("session")
        let app = try registry.defineConfiguration("app")
        try app.register(UserSession.self, scope: .custom("session")) { _ in UserSession(life, "UserSession") }
        try app.register(Coordinator.self, scope: .singleton, dependencies: [.provider(UserSession.self)]) { r in
            Coordinator(try r.provider())
        }
        let container = try registry.container("app")
        let first = try container.openScope("session")
        let coordinator = try first.resolve(Coordinator.self)
        try first.close()
        let second = try container.openScope("session")
        #expect(try coordinator.make() === second.resolve(UserSession.self))
    }

    @Test func aConfigurationOutlivingItsRegistryFailsCleanly() throws {
        var registry: Registry? = Registry()
        let app = try registry?.defineConfiguration("app")
        registry = nil
        let error = registryError { try app?.register(Cache.self) { _ in Cache(life, "Cache") } }
        #expect(error?.message == "cannot register Cache: the registry of configuration 'app' is gone")
        #expect(app?.registrations.isEmpty == true)
    }
}

@Suite("Declaration errors name what is wrong and where")
struct DeclarationErrorTests {
    let registry = Registry()

    @Test func scopeDeclarations() throws {
        let reserved = registryError { try registry.declareScope("singleton", file: "s.swift", line: 1) }
        #expect(reserved?.message == "'singleton' cannot name a custom scope")
        try registry.declareScope("session", file: "s.swift", line: 2)
        // Two modules may declare the scope they share; only a different declaration is an error.
        try registry.declareScope("session", file: "t.swift", line: 9)
        let twice = registryError { try registry.declareScope("session", in: "session", file: "s.swift", line: 3) }
        #expect(twice?.description == "scope 'session' is declared twice, differently: at the top (no within) and within 'session'\n"
            + "  first at s.swift:2: at the top (no within)\n  again at s.swift:3: within 'session'\n"
            + "  declare it the same way everywhere (an identical declaration is fine)")
        let orphan = registryError { try registry.declareScope("screen", in: "sesion", file: "s.swift", line: 4) }
        #expect(orphan?.kind == .unknownScope)
        #expect(orphan?.message == "scope 'screen' nests in 'sesion', which is not declared, did you mean 'session'?")
        #expect(registry.scopes.map(\.name) == ["session"])
    }

    @Test func configurationNames() throws {
        let empty = registryError { try registry.defineConfiguration("") }
        #expect(empty?.message == "a configuration needs a name")
    }

    @Test func topLevelScopeCannotBeOpenedInsideAnother() throws {
        try registry.declareScope("session")
        try registry.declareScope("request")
        try registry.defineConfiguration("app")
        let container = try registry.container("app")
        let session = try container.openScope("session")
        let error = registryError { _ = try session.openScope("request") }
        #expect(error?.description == "cannot open scope 'request' inside 'session': it is a top-level scope; open it from the container in configuration 'app'")
        withExtendedLifetime(container) {}
        // A handle whose container is gone says so.
        let orphan = try registry.container("app").openScope("session")
        #expect(registryError { _ = try orphan.openScope("request") }?.message == "cannot open scope 'request': the container is gone")
    }
}
