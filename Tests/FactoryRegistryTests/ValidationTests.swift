import Testing
@testable import FactoryRegistry

@Suite("Validation reports every problem at once, from declarations alone")
struct ValidationTests {
    @Test func validatingALongExtendsChainKeepsNoFlattenedPlans() throws {
        // Each configuration of a chain flattens everything above it: kept,
        // those plans grew with the square of the chain (1.7 GB for 3,000).
        let registry = Registry()
        final class Link: Sendable {}
        for i in 0..<200 {
            let configuration = try registry.defineConfiguration("c\(i)", extends: i == 0 ? nil : "c\(i - 1)")
            try configuration.register(Link.self, name: "l\(i)") { _ in Link() }
        }
        #expect(registry.validate().isEmpty)
        #expect(try registry.registrations(in: "c199").count == 200)
        #expect(registry.cachedPlanCount == 0)
        // A container still caches its configuration's plan, and resolves.
        #expect(try registry.container("c199").resolve(Link.self, name: "l0") is Link)
        #expect(registry.cachedPlanCount == 1)
    }

    @Test func captivesAreFoundAlongDeepTransientChainsWithTheirWholePath() throws {
        // A singleton at the top of a 20,000-link transient chain that ends in
        // a session-scoped registration captures it; one at the top of a chain
        // that ends in a singleton does not. (The check once copied the path
        // at every link, quadratic in depth, for every holder.)
        let registry = Registry()
        try registry.declareScope("session")
        let app = try registry.defineConfiguration("app")
        final class Link: Sendable {}
        let depth = 20_000
        for i in 0..<depth {
            let next: Dependency = i == depth - 1 ? .instance(UserSession.self) : .instance(Link.self, name: "t\(i + 1)")
            try app.register(Link.self, name: "t\(i)", dependencies: [next]) { _ in Link() }
            let safeNext: Dependency = i == depth - 1 ? .instance(Logger.self) : .instance(Link.self, name: "u\(i + 1)")
            try app.register(Link.self, name: "u\(i)", dependencies: [safeNext]) { _ in Link() }
        }
        let life = Lifecycle()
        try app.register(UserSession.self, scope: .custom("session")) { _ in UserSession(life, "u") }
        try app.register(Logger.self, scope: .singleton) { _ in Logger(life, "l") }
        try app.register(Cache.self, scope: .singleton, dependencies: [.instance(Link.self, name: "u0")], file: "app.lua", line: 1) { _ in Cache(life, "c") }
        try app.register(Store.self, scope: .singleton, dependencies: [.instance(Link.self, name: "t0")], file: "app.lua", line: 2) { _ in
            Store(life, logger: Logger(life, "x"))
        }
        let problems = registry.validate()
        #expect(problems.map(\.kind) == [.captiveDependency])
        #expect(problems.first?.origin == Origin(file: "app.lua", line: 2))
        let path = try #require(problems.first?.details.first)
        let names = path.dropFirst("path: ".count).components(separatedBy: " → ")
        #expect(names == ["Store"] + (0..<depth).map { "Link#t\($0)" } + ["UserSession"])
    }

    @Test func captivesAreFoundThroughTransientCyclesAndOnlyForScopesTheHolderOutlives() throws {
        let registry = Registry()
        try registry.declareScope("session")
        try registry.declareScope("screen", in: "session")
        let app = try registry.defineConfiguration("app")
        final class A: Sendable {}
        final class B: Sendable {}
        let life = Lifecycle()
        // A and B (transient) depend on each other; B reaches both scopes.
        try app.register(A.self, dependencies: [.instance(B.self)]) { _ in A() }
        try app.register(B.self, dependencies: [.instance(A.self), .instance(UserSession.self), .instance(Store.self)]) { _ in B() }
        try app.register(UserSession.self, scope: .custom("session")) { _ in UserSession(life, "u") }
        try app.register(Store.self, scope: .custom("screen")) { _ in Store(life, logger: Logger(life, "x")) }
        try app.register(Logger.self, scope: .singleton, dependencies: [.instance(A.self)], file: "app.lua", line: 1) { _ in Logger(life, "l") }
        // A session-scoped holder may hold session-scoped instances, not screen-scoped ones.
        try app.register(Cache.self, scope: .custom("session"), dependencies: [.instance(A.self)], file: "app.lua", line: 2) { _ in Cache(life, "c") }
        // Entering the cycle at B instead of A.
        try app.register(HTTPSession.self, scope: .singleton, dependencies: [.instance(B.self)], file: "app.lua", line: 3) { _ in
            HTTPSession(life, "h")
        }
        let problems = registry.validate()
        #expect(problems.filter { $0.kind == .cycle }.count == 1)
        let captives = problems.filter { $0.kind == .captiveDependency }
        #expect(captives.map { $0.origin?.line } == [1, 1, 2, 3, 3])
        #expect(Set(captives.prefix(2).compactMap(\.details.first)) == ["path: Logger → A → B → UserSession", "path: Logger → A → B → Store"])
        #expect(captives[2].details.first == "path: Cache → A → B → Store")
        #expect(captives[2].message == "captive dependency: session-scoped Cache would keep screen-scoped instances after their scope closes")
        #expect(Set(captives.suffix(2).compactMap(\.details.first)) == ["path: HTTPSession → B → UserSession", "path: HTTPSession → B → Store"])
    }

    @Test func everyProblemWithItsOrigin() throws {
        let life = Lifecycle()
        let registry = Registry()
        try registry.declareScope("session")
        let app = try registry.defineConfiguration("app")
        final class A: Sendable {}
        final class B: Sendable {}
        try app.register(A.self, dependencies: [.instance(B.self)], file: "app.lua", line: 1) { _ in life.born("A"); return A() }
        try app.register(B.self, dependencies: [.instance(A.self)], file: "app.lua", line: 2) { _ in life.born("B"); return B() }
        try app.register(Cache.self, dependencies: [.instance(HTTPSession.self)], file: "app.lua", line: 3) { _ in Cache(life, "c") }
        try app.register(UserSession.self, scope: .custom("session"), file: "app.lua", line: 4) { _ in UserSession(life, "u") }
        try app.register(Logger.self, scope: .singleton, dependencies: [.instance(UserSession.self)], file: "app.lua", line: 5) { _ in Logger(life, "l") }
        try app.register(Store.self, scope: .custom("sesion"), file: "app.lua", line: 6) { _ in Store(life, logger: Logger(life, "x")) }
        let problems = registry.validate()
        #expect(Set(problems.map(\.kind)) == [.missingRegistration, .unknownScope, .cycle, .captiveDependency])
        #expect(problems.count == 4)
        let byKind = Dictionary(grouping: problems, by: \.kind)
        #expect(byKind[.missingRegistration]?.first?.origin == Origin(file: "app.lua", line: 3))
        #expect(byKind[.unknownScope]?.first?.message == "Store is registered in scope 'sesion', which is not declared, did you mean 'session'?")
        #expect(byKind[.captiveDependency]?.first?.origin == Origin(file: "app.lua", line: 5))
        #expect(byKind[.cycle]?.first?.message == "dependency cycle: A → B → A")
        #expect(life.alive == 0 && life.built("A") == 0)      // nothing was built
    }

    /// A provider that says which named arguments it will pass (an
    /// assisted factory's method) must pass exactly what its target takes;
    /// the problem names both registrations.
    @Test func aProviderExpectingOtherNamedArgumentsIsAProblemNamingBoth() throws {
        final class User: Sendable {}
        final class Screen: Sendable {}
        final class Factory: Sendable {}
        func problems(passing arguments: [ArgumentSpec]) throws -> [RegistryError] {
            let registry = Registry()
            let app = try registry.defineConfiguration("app")
            try app.add(Registration(key: ServiceKey(Screen.self), arguments: [ArgumentSpec("user", User.self)],
                                     origin: Origin(file: "app.lua", line: 1), factory: TypedFactory { _, _ in Screen() }))
            try app.add(Registration(key: ServiceKey(Factory.self),
                                     dependencies: [Dependency(ServiceKey(Screen.self), kind: .provider, label: "screen", arguments: arguments)],
                                     origin: Origin(file: "app.lua", line: 2), factory: TypedFactory { _, _ in Factory() }))
            return registry.validate()
        }
        #expect(try problems(passing: [ArgumentSpec("user", User.self)]).isEmpty)
        let renamed = try problems(passing: [ArgumentSpec("name", User.self)])
        #expect(renamed.count == 1)
        #expect(renamed.first?.kind == .argumentMismatch)
        #expect(renamed.first?.message == "Factory.screen passes (name: User) to Screen, which takes (user: User)")
        #expect(renamed.first?.details == ["Factory registered at app.lua:2", "Screen registered at app.lua:1"])
        #expect(try problems(passing: []).first?.message == "Factory.screen passes () to Screen, which takes (user: User)")
        #expect(try problems(passing: [ArgumentSpec("user", Screen.self)]).first?.message
                == "Factory.screen passes (user: Screen) to Screen, which takes (user: User)")
    }

    /// An override that changes only parameters (``Refinement``) keeps the
    /// inherited registration — scope, dependencies — with its factory
    /// remade; a parameter it does not have is a problem naming both places.
    @Test func aRefinementRemakesTheInheritedFactoryAndKeepsTheRest() throws {
        final class Greeting: Sendable { let word: String; init(_ word: String) { self.word = word } }
        let registry = Registry()
        let app = try registry.defineConfiguration("app")
        var base = Registration(key: ServiceKey(Greeting.self), scope: .singleton, origin: Origin(file: "app.lua", line: 1),
                                factory: TypedFactory { _ in Greeting("hello") })
        base.parameters = [RegistrationParameter("word", type: "string")]
        try app.add(base)
        func refinement(_ name: String, _ type: String, line: Int) -> Registration {
            var change = Registration(key: ServiceKey(Greeting.self), origin: Origin(file: "tests.lua", line: line), overrides: true,
                                      factory: AnyFactory())
            change.refinement = Refinement(parameters: [RegistrationParameter(name, type: type)]) { _ in TypedFactory { _ in Greeting("hi") } }
            return change
        }
        let tests = try registry.defineConfiguration("tests", extends: "app")
        try tests.add(refinement("word", "string", line: 2))
        let container = try registry.container("tests")
        let greeting = try container.resolve(Greeting.self)
        #expect(greeting.word == "hi")
        #expect(try container.resolve(Greeting.self) === greeting)            // still a singleton
        #expect(try registry.graph(of: "tests").renderTree() == "Greeting [singleton] params(word: string, changed at tests.lua:2) app.lua:1")
        let typo = try registry.defineConfiguration("typo", extends: "app")
        try typo.add(refinement("wrd", "string", line: 3))
        #expect(registry.validate("typo").map(\.message)
                == ["Greeting changes parameters of the registration it overrides, and it has no parameter 'wrd', did you mean 'word'?"])
        #expect(registry.validate("typo").first?.details == ["Greeting registered at app.lua:1 (parameters: word: string)", "changed at tests.lua:3"])
    }

    @Test func graphShowsNodesEdgesAndMissingOnes() throws {
        let life = Lifecycle()
        let registry = Registry()
        let app = try registry.defineConfiguration("app")
        try registerGraph9(app, life, storeScope: .singleton)
        try app.register(Token.self, dependencies: [.instance(User.self, label: "owner"), .provider(Cache.self)]) { _ in Token(value: 0) }
        let graph = try registry.graph(of: "app", root: ServiceKey(ViewModel.self))
        #expect(graph.nodes.map(\.key).sorted() == ["Cache", "HTTPSession", "Logger", "MovieLoader", "Store", "ViewModel"])
        #expect(graph.edges.count == 3 + 2 + 1)
        let root = try #require(graph.roots.first)
        #expect(graph.edges(from: root).compactMap(\.label) == ["a", "b"])
        #expect(graph.nodes.first { $0.key == "Store" }?.scope == "singleton")
        let whole = try registry.graph(of: "app")
        let token = try #require(whole.nodes.first { $0.key == "Token" })
        let edges = whole.edges(from: token.id)
        #expect(edges.map(\.kind) == [.instance, .provider])
        #expect(whole.nodes[edges[0].to].isMissing)
        #expect(whole.nodes[edges[0].to].scope == "missing")
    }

    /// Mermaid: a box per registration, dotted provider edges, a missing
    /// dependency in red, and label text that cannot end its quotes.
    @Test func graphAsMermaid() throws {
        final class Token: Sendable {}
        final class User: Sendable {}
        final class Cache: Sendable {}
        let registry = Registry()
        let app = try registry.defineConfiguration("app")
        try app.register(Cache.self, name: "a\"b#c", scope: .singleton, file: "app.lua", line: 1) { _ in Cache() }
        try app.register(Token.self, dependencies: [.instance(User.self, label: "owner"), .provider(Cache.self, name: "a\"b#c", label: "cache")],
                         file: "app.lua", line: 2) { _ in Token() }
        let mermaid = try registry.graph(of: "app", root: ServiceKey(Token.self)).renderMermaid()
        #expect(mermaid == """
            flowchart LR
              n0["Token<br/>transient<br/>app.lua:2"]
              n1["User<br/>missing"]:::missing
              n2["Cache#35;a#quot;b#35;c<br/>singleton<br/>app.lua:1"]
              n0 -->|"owner"| n1
              n0 -.->|"cache (provider)"| n2
              classDef missing stroke:#c00,stroke-dasharray:4 4,color:#c00
            """)
        // A line break is a space, a Windows one (\r\n) too — one, not two.
        #expect(mermaidText("a\r\nb\nc\rd") == "a b c d")
    }
}

@Suite("Validating every configuration at once")
struct ValidateAllTests {
    /// Validating all configurations flattens each from its parent's (linear
    /// in an extends chain); what it finds is what validating each finds.
    @Test func findsWhatValidatingEachFinds() throws {
        let registry = Registry()
        struct A {}
        struct B {}
        struct C {}
        let base = try registry.defineConfiguration("base")
        try base.register(A.self) { _ in A() }
        try base.register(B.self, dependencies: [.instance(C.self)]) { _ in B() }      // C missing in base
        let mid = try registry.defineConfiguration("mid", extends: "base")
        try mid.register(A.self) { _ in A() }                                            // a duplicate without override
        try mid.register(C.self, overrides: true) { _ in C() }                           // overrides nothing
        let leaf = try registry.defineConfiguration("leaf", extends: "mid")
        try leaf.register(C.self) { _ in C() }
        _ = try registry.defineConfiguration("orphan", extends: "missing")
        _ = try registry.defineConfiguration("x", extends: "y")
        _ = try registry.defineConfiguration("y", extends: "x")
        let together = registry.validate().map(\.description)
        let oneByOne = registry.configurationNames.flatMap { registry.validate($0) }.map(\.description)
        #expect(!together.isEmpty)
        // …except that a cycle is one problem, on its first member declared (each member restated it).
        #expect(together == oneByOne.filter { !$0.hasPrefix("configurations extend each other in a cycle: y → x") })
        #expect(oneByOne.contains { $0.hasPrefix("configurations extend each other in a cycle: y → x") })
        #expect(registry.registrationCounts() == Dictionary(uniqueKeysWithValues: registry.configurationNames.map {
            ($0, (try? registry.registrationCount(in: $0)) ?? -1)
        }))
    }
}
