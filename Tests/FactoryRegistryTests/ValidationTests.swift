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

    @Test func drawingEachConfigurationKeepsNoPlans() throws {
        // `graph` draws every configuration of a script in turn: each plan was
        // cached, and 4,000 chained configurations held 1.9 GB of plans.
        let registry = Registry()
        final class Link: Sendable {}
        for i in 0..<50 {
            let configuration = try registry.defineConfiguration("c\(i)", extends: i == 0 ? nil : "c\(i - 1)")
            try configuration.register(Link.self, name: "l\(i)") { _ in Link() }
        }
        for name in registry.configurationNames { #expect(try registry.graph(of: name).nodes.count > 0) }
        #expect(registry.cachedPlanCount == 0)
    }

    @Test func captivesAreFoundAlongDeepTransientChainsWithTheirPathsEnds() throws {
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
        // Its start and end: the whole path of each holder was kept (a thousand holders, 1.3 GB).
        #expect(names == ["Store"] + (0..<29).map { "Link#t\($0)" } + ["… (19967 more) …"]
                + ((depth - 4)..<depth).map { "Link#t\($0)" } + ["UserSession"])
    }

    /// What each transient reaches is found once for all holders of a
    /// lifetime (5,000 singletons above a 5,000-link chain each walked it:
    /// 22 s), and a captive's path goes through the first dependency, in
    /// declared order, that reaches it. A holder that reaches a transient
    /// cycle walks instead, whichever holders came before it.
    @Test func holdersShareWhatTransientsReachAndTakeTheFirstRoute() throws {
        let registry = Registry()
        try registry.declareScope("session")
        let app = try registry.defineConfiguration("app")
        final class Link: Sendable {}
        func link(_ name: String) -> Dependency { .instance(Link.self, name: name) }
        try app.register(UserSession.self, scope: .custom("session")) { _ in UserSession(Lifecycle(), "u") }
        for i in 0..<100 {
            try app.register(Link.self, name: "t\(i)", dependencies: [i == 99 ? .instance(UserSession.self) : link("t\(i + 1)")]) { _ in Link() }
        }
        // Two routes to the session: through "long" (the chain) first, then "short".
        try app.register(Link.self, name: "short", dependencies: [.instance(UserSession.self)]) { _ in Link() }
        // A cycle of transients that reaches the session.
        try app.register(Link.self, name: "c1", dependencies: [link("c2"), .instance(UserSession.self)]) { _ in Link() }
        try app.register(Link.self, name: "c2", dependencies: [link("c1")]) { _ in Link() }
        for i in 0..<300 {
            let through: [Dependency] = i == 150 ? [link("c1")] : [link("t0"), link("short")]
            try app.register(Link.self, name: "h\(i)", scope: .singleton, dependencies: through) { _ in Link() }
        }
        let problems = registry.validate().filter { $0.kind == .captiveDependency }
        #expect(problems.count == 300)
        let paths = problems.compactMap(\.details.first)
        #expect(paths.first == "path: Link#h0 → " + (0..<29).map { "Link#t\($0)" }.joined(separator: " → ")
                + " → … (67 more) … → Link#t96 → Link#t97 → Link#t98 → Link#t99 → UserSession")
        #expect(paths[150] == "path: Link#h150 → Link#c1 → UserSession")
        #expect(Set(paths.enumerated().filter { $0.offset != 150 }.map { $0.element.replacingOccurrences(of: #"h\d+"#, with: "h",
                                                                                                         options: .regularExpression) }).count == 1)
        // The same, one configuration at a time and from a configuration extending it.
        let tests = try registry.defineConfiguration("tests", extends: "app")
        try tests.register(Link.self, name: "extra") { _ in Link() }
        #expect(registry.validate("tests").filter { $0.kind == .captiveDependency }.compactMap(\.details.first) == paths)
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

extension ValidationTests {
    /// A long cycle is said as a path is — its first 30 names and last 5,
    /// with how many between — in its message and its places (attack 10:
    /// every member was named, in each configuration of a chain growing the
    /// cycle a level at a time: 8,000 levels held 960 MB).
    @Test func aLongCycleIsSaidAsALongPathIs() throws {
        final class Node: Sendable {}
        let registry = Registry()
        let app = try registry.defineConfiguration("app")
        for i in 0..<1_000 {
            try app.register(Node.self, name: "n\(i)", dependencies: [.instance(Node.self, name: "n\((i + 1) % 1_000)")]) { _ in Node() }
        }
        let problems = registry.validate("app")
        #expect(problems.count == 1 && problems.first?.kind == .cycle)
        let problem = try #require(problems.first)
        #expect(problem.message.hasPrefix("dependency cycle: Node#n0 → Node#n1 → "))
        #expect(problem.message.contains("→ … (966 more) … →") && problem.message.hasSuffix("Node#n999 → Node#n0"), "\(problem.message)")
        #expect(problem.details.count == 36 && problem.details[30] == "… (965 more) …", "\(problem.details.count)")
        #expect(problem.description.utf8.count < 4_096)
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

@Suite("Validating a configuration from the one it extends")
struct IncrementalValidationTests {
    final class Node: Sendable {}

    /// Every part of a problem that a user sees, and where.
    static func render(_ problem: RegistryError) -> String {
        "\(problem.kind) \(problem.origin.map { "\($0)" } ?? "-") \(problem.description)"
    }

    /// A small deterministic generator (the same registries every run).
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    /// Trees of configurations mixing what extending can do — adding,
    /// overriding, duplicating, contributing to a collection, depending on
    /// one, a missing key registered further down, a close typo of a key
    /// added later, scopes that make captives, cycles among the added —
    /// are validated together exactly as one by one.
    ///
    /// An override may depend on what its configuration adds after it.
    ///
    /// A messy tree has problems everywhere (cycles and typos make most
    /// configurations validated whole); a tidy one is mostly a chain whose
    /// overrides mostly keep their lifetimes, so most are validated from their parent's.
    @Test(arguments: 1...40, [true, false])
    func findsWhatValidatingEachWholeFinds(seed: Int, messy: Bool) throws {
        var random = Generator(state: UInt64(seed) &* 0x9E3779B97F4A7C15)
        let registry = Registry()
        try registry.declareScope("session")
        try registry.declareScope("screen", in: "session")
        let list = ServiceKey(.list(of: ServiceType(Node.self)))
        let map = ServiceKey(.map(of: ServiceType(Node.self)))
        var next = 0
        var contributionOf: [String: Contribution] = [:]     // an override of a contribution says into = … as it does
        var takesArgument: Set<String> = []                  // an override keeping the arguments, moved: problems name where it is
        var names: [String] = []
        var scopeOf: [String: Scope] = [:]        // as first registered: an override keeping it is looked at alone
        for index in 0..<40 {
            let parent: String? = index == 0 || random.next(messy ? 10 : 40) == 0 ? nil
                : random.next(10) < (messy ? 7 : 9) ? names[index - 1] : names[random.next(index)]
            let name = "c\(index)"
            let configuration = try registry.defineConfiguration(name, extends: index == 5 ? "nowhere" : parent)
            names.append(name)
            var mine: Set<String> = []
            for _ in 0..<random.next(5) {
                let scopes: [Scope] = [.transient, .transient, .graph, .singleton, .weak, .custom("session"), .custom("screen")]
                let scope = messy && random.next(40) == 0 ? .custom("sesion") : scopes[random.next(scopes.count)]
                // An override of node j (tidy) depends on nodes below j: it closes no cycle.
                let overridden = next > 0 ? random.next(next) : 0
                let below = messy ? next : overridden
                var dependencies: [Dependency] = []
                for _ in 0..<random.next(4) {
                    let target: String
                    switch random.next(messy ? 10 : 60) {
                    case 0: target = "node\(next + 1 + random.next(3))"                    // registered later, if at all
                    case 1: target = "nodf\(max(0, next - random.next(4)))"                 // a typo of a near key
                    case 2, 3: target = "node\(next + random.next(2))"                      // one added next, often beside it
                    default: target = "node\(random.next(max(1, below)))"
                    }
                    switch random.next(messy ? 8 : 30) {
                    case 0: dependencies.append(.provider(Node.self, name: target))
                    case 1: dependencies.append(Dependency(ServiceKey(Node.self, name: target), kind: .provider, label: "make",
                                                           arguments: [ArgumentSpec("id", Int.self)]))
                    default: dependencies.append(.instance(Node.self, name: target))
                    }
                }
                if random.next(messy ? 25 : 12) == 0 { dependencies.append(Dependency(random.next(3) == 0 ? map : list)) }
                let line = next
                switch random.next(12) {
                case 0 where next > 0, 4 where next > 0:       // an override (of something inherited, or of nothing)
                    let key = "node\(overridden)"
                    guard mine.insert(key).inserted else { continue }
                    let kept = random.next(4) > 0 ? scopeOf[key] ?? scope : scope
                    if takesArgument.contains(key), random.next(2) == 0 {
                        try configuration.register(Node.self, name: key, argument: ("id", Int.self), overrides: true,
                                                   file: "\(name).lua", line: line) { _, _ in Node() }
                        continue
                    }
                    if let contribution = contributionOf[key], random.next(messy ? 8 : 2) > 0 {
                        try configuration.register(Node.self, name: key, into: contribution, scope: kept, dependencies: dependencies,
                                                   overrides: true, file: "\(name).lua", line: line) { _ in Node() }
                        continue
                    }
                    try configuration.register(Node.self, name: key, scope: kept, dependencies: dependencies, overrides: true,
                                               file: "\(name).lua", line: line) { _ in Node() }
                case 1 where next > 0:       // a duplicate (unless it is this one's own)
                    let key = "node\(random.next(next))"
                    guard mine.insert(key).inserted else { continue }
                    try configuration.register(Node.self, name: key, file: "\(name).lua", line: line) { _ in Node() }
                case 2, 5 where !messy:       // a contribution to the list or the map, scoped, with dependencies
                    let contribution: Contribution = random.next(3) == 0 ? .map(key: "k\(next)") : .set
                    try configuration.register(Node.self, name: "node\(next)", into: contribution, scope: scope,
                                               dependencies: dependencies.filter { $0.key != list && $0.key != map || messy },
                                               file: "\(name).lua", line: line) { _ in Node() }
                    contributionOf["node\(next)"] = contribution
                    scopeOf["node\(next)"] = scope
                    mine.insert("node\(next)")
                    next += 1
                case 3:
                    try configuration.register(Node.self, name: "node\(next)", argument: ("id", Int.self),
                                               file: "\(name).lua", line: line) { _, _ in Node() }
                    takesArgument.insert("node\(next)")
                    mine.insert("node\(next)")
                    next += 1
                default:
                    try configuration.register(Node.self, name: "node\(next)", scope: scope, dependencies: dependencies,
                                               file: "\(name).lua", line: line) { _ in Node() }
                    scopeOf["node\(next)"] = scope
                    mine.insert("node\(next)")
                    next += 1
                }
            }
        }
        var whole = 0
        let together = registry.validateAll(stoppingAfter: .max, wholeValidations: &whole).problems.map(Self.render)
        // (One by one, each configuration below the broken link restates it, and what c5 overrides
        // is "nothing" there; together the link is said once, and is the problem.)
        let oneByOne = registry.configurationNames.flatMap { registry.validate($0) }
            .filter { $0.kind != .unknownConfiguration || $0.configuration == "c5" }
            .filter { $0.kind != .nothingToOverride || !$0.details.contains { $0.contains("'nowhere'") } }
            .map(Self.render)
        let differing = zip(together, oneByOne).first { $0 != $1 }
        #expect(differing == nil)
        #expect(together.count == oneByOne.count)
        #expect(together.count > 10)
        #expect(whole < names.count)        // some were validated from their parent's validation
    }

    @Test func aChainThatOnlyAddsIsValidatedWholeOnceAtItsRoot() throws {
        let registry = Registry()
        try registry.declareScope("session")
        for i in 0..<300 {
            let configuration = try registry.defineConfiguration("c\(i)", extends: i == 0 ? nil : "c\(i - 1)")
            // Each depends on the one before; every tenth is a singleton holding a session-scoped one.
            let scope: Scope = i % 10 == 0 ? .singleton : i % 10 == 5 ? .custom("session") : .transient
            try configuration.register(Node.self, name: "node\(i)", scope: scope,
                                       dependencies: i == 0 ? [] : [.instance(Node.self, name: "node\(i - 1)")]) { _ in Node() }
        }
        var whole = 0
        let problems = registry.validateAll(stoppingAfter: .max, wholeValidations: &whole).problems
        #expect(whole == 1)
        #expect(problems.map(Self.render) == registry.configurationNames.flatMap { registry.validate($0) }.map(Self.render))
        // Each singleton from node10 on holds the session-scoped one below it, in each configuration that has it.
        #expect(problems.filter { $0.kind == .captiveDependency && $0.configuration == "c299" }.count == 29)
    }
}

extension IncrementalValidationTests {
    @Test func aChainThatOverridesAtEachLevelIsValidatedWholeOnlyWhereACycleCouldClose() throws {
        let registry = Registry()
        try registry.declareScope("session")
        let root = try registry.defineConfiguration("c0")
        try root.register(Node.self, name: "clock") { _ in Node() }
        try root.register(Node.self, name: "service", scope: .singleton, dependencies: [.instance(Node.self, name: "clock")]) { _ in Node() }
        for i in 1..<200 {
            let configuration = try registry.defineConfiguration("c\(i)", extends: "c\(i - 1)")
            try configuration.register(Node.self, name: "node\(i)", dependencies: [.instance(Node.self, name: "service")]) { _ in Node() }
            // A fake clock at each level: the service depending on it is not looked at again.
            try configuration.register(Node.self, name: "clock", overrides: true, file: "c\(i).lua", line: 1) { _ in Node() }
        }
        // One level's clock depends on the service, which depends on it: a cycle only validating whole finds.
        let cyclic = try registry.defineConfiguration("cyclic", extends: "c199")
        try cyclic.register(Node.self, name: "clock", dependencies: [.instance(Node.self, name: "service")], overrides: true) { _ in Node() }
        // One level's clock becomes session-scoped: the singleton service would capture it (found from what changed).
        let scoped = try registry.defineConfiguration("scoped", extends: "c199")
        try scoped.register(Node.self, name: "clock", scope: .custom("session"), overrides: true) { _ in Node() }
        var whole = 0
        let problems = registry.validateAll(stoppingAfter: .max, wholeValidations: &whole).problems
        #expect(whole == 2)
        #expect(problems.map(\.kind) == [.cycle, .captiveDependency])
        #expect(problems.map(Self.render) == registry.configurationNames.flatMap { registry.validate($0) }.map(Self.render))
    }
}

extension IncrementalValidationTests {
    /// Each level of a chain contributing to a set and a map, overriding an
    /// inherited contribution, or naming a collection first, is validated
    /// from its parent's validation (attack 8: each was validated whole, and
    /// 4,000 levels took over 10 s), finding what validating each whole
    /// finds — a singleton holding the list captures a session-scoped contribution.
    @Test func aChainOfContributionsIsValidatedFromWhatEachLevelAdds() throws {
        let registry = Registry()
        try registry.declareScope("session")
        let list = ServiceKey(.list(of: ServiceType(Node.self))), map = ServiceKey(.map(of: ServiceType(Node.self)))
        let root = try registry.defineConfiguration("c0")
        try root.register(Node.self, name: "clock") { _ in Node() }
        try root.register(Node.self, name: "router", scope: .singleton, dependencies: [Dependency(list)]) { _ in Node() }
        for i in 1..<300 {
            let configuration = try registry.defineConfiguration("c\(i)", extends: "c\(i - 1)")
            try configuration.register(Node.self, name: "h\(i)", into: .set, scope: i == 150 ? .custom("session") : .transient,
                                       dependencies: [.instance(Node.self, name: "clock")], file: "c\(i).lua", line: 1) { _ in Node() }
            if i % 3 == 0 {
                try configuration.register(Node.self, name: "m\(i)", into: .map(key: "k\(i)"), file: "c\(i).lua", line: 2) { _ in Node() }
            }
            if i == 100 {     // the map, first named
                try configuration.register(Node.self, name: "table", scope: .singleton, dependencies: [Dependency(map)],
                                           file: "c\(i).lua", line: 3) { _ in Node() }
            }
            if i % 7 == 0 {   // an inherited contribution replaced
                try configuration.register(Node.self, name: "h\(i / 2)", into: .set, overrides: true, file: "c\(i).lua", line: 4) { _ in Node() }
            }
        }
        var whole = 0
        let problems = registry.validateAll(stoppingAfter: .max, wholeValidations: &whole).problems
        #expect(whole == 1)
        #expect(problems.count == 150 && problems.allSatisfy { $0.kind == .captiveDependency })
        #expect(problems.map(Self.render) == registry.configurationNames.flatMap { registry.validate($0) }.map(Self.render))
    }
}

extension IncrementalValidationTests {
    /// A test configuration's double that depends on a fixture of its own,
    /// added beside it: each level of a chain of them is validated from
    /// what it changes (4,000 levels took 3 s when each was validated whole).
    @Test func anOverrideDependingOnWhatItsConfigurationAddsIsValidatedFromItsParent() throws {
        let registry = Registry()
        let root = try registry.defineConfiguration("c0")
        try root.register(Node.self, name: "clock") { _ in Node() }
        try root.register(Node.self, name: "service", scope: .singleton, dependencies: [.instance(Node.self, name: "clock")]) { _ in Node() }
        for i in 1..<200 {
            let configuration = try registry.defineConfiguration("c\(i)", extends: "c\(i - 1)")
            // The clock at each level depends on a fixture added after it, which depends on one added before it.
            try configuration.register(Node.self, name: "seed\(i)") { _ in Node() }
            try configuration.register(Node.self, name: "clock", dependencies: [.instance(Node.self, name: "fixture\(i)")],
                                       overrides: true) { _ in Node() }
            try configuration.register(Node.self, name: "fixture\(i)", dependencies: [.instance(Node.self, name: "seed\(i)")]) { _ in Node() }
        }
        var whole = 0
        let problems = registry.validateAll(stoppingAfter: .max, wholeValidations: &whole).problems
        #expect(problems.isEmpty)
        #expect(whole == 1)
    }

    /// A cycle is reported as first met; what is on it or reaches it keeps
    /// its dependencies (or the configuration is validated whole), and the
    /// rest is validated from what changes: a script with a cycle and a
    /// long chain of overrides is not validated whole at each level.
    @Test func aCycleLeavesWhatIsApartFromItValidatedFromWhatChanges() throws {
        let registry = Registry()
        func node(_ name: String) -> Dependency { .instance(Node.self, name: name) }
        let root = try registry.defineConfiguration("c0")
        try root.register(Node.self, name: "a", dependencies: [node("b")]) { _ in Node() }
        try root.register(Node.self, name: "b", dependencies: [node("a")]) { _ in Node() }
        try root.register(Node.self, name: "user", dependencies: [node("a")]) { _ in Node() }
        try root.register(Node.self, name: "clock") { _ in Node() }
        for i in 1..<100 {
            let configuration = try registry.defineConfiguration("c\(i)", extends: "c\(i - 1)")
            try configuration.register(Node.self, name: "clock", scope: i % 2 == 0 ? .singleton : .transient,
                                       dependencies: [node("seed\(i)")], overrides: true) { _ in Node() }
            try configuration.register(Node.self, name: "seed\(i)") { _ in Node() }
        }
        // What reaches the cycle, overridden: validated whole, its cycle met the same way.
        let reaching = try registry.defineConfiguration("reaching", extends: "c99")
        try reaching.register(Node.self, name: "user", overrides: true) { _ in Node() }
        // An override that now reaches it: found from what changed is not enough either.
        let nowReaching = try registry.defineConfiguration("nowReaching", extends: "c99")
        try nowReaching.register(Node.self, name: "clock", dependencies: [node("b")], overrides: true) { _ in Node() }
        var whole = 0
        let problems = registry.validateAll(stoppingAfter: .max, wholeValidations: &whole).problems
        #expect(whole == 3)
        #expect(problems.count == 102 && problems.allSatisfy { $0.kind == .cycle })
        #expect(problems.map(Self.render) == registry.configurationNames.flatMap { registry.validate($0) }.map(Self.render))
    }

    /// What an override's added dependencies could change in what is
    /// inherited is found as validating the configuration whole finds it:
    /// a cycle back through what depended on it, through another override,
    /// among the added ones it reaches (validated whole); a scope it now
    /// reaches (from what changed).
    @Test(arguments: ["throughInherited", "throughOverride", "amongAdded", "reachesAScope", "fine"])
    func anOverrideDependingOnWhatItsConfigurationAddsIsCheckedLikeAWholeValidation(_ scenario: String) throws {
        let registry = Registry()
        try registry.declareScope("session")
        let app = try registry.defineConfiguration("app")
        let tests = try registry.defineConfiguration("tests", extends: "app")
        let more = try registry.defineConfiguration("more", extends: "tests")      // validated from tests' when that holds
        func node(_ name: String) -> Dependency { .instance(Node.self, name: name) }
        try app.register(Node.self, name: "clock") { _ in Node() }
        try app.register(Node.self, name: "calendar") { _ in Node() }
        try app.register(Node.self, name: "service", scope: .singleton, dependencies: [node("clock")]) { _ in Node() }
        try more.register(Node.self, name: "extra", dependencies: [node("service")]) { _ in Node() }
        switch scenario {
        case "throughInherited":        // clock → fixture → service → clock
            try tests.register(Node.self, name: "clock", dependencies: [node("fixture")], overrides: true) { _ in Node() }
            try tests.register(Node.self, name: "fixture", dependencies: [node("service")]) { _ in Node() }
        case "throughOverride":         // clock → fixture → calendar → clock, both overridden
            try tests.register(Node.self, name: "clock", dependencies: [node("fixture")], overrides: true) { _ in Node() }
            try tests.register(Node.self, name: "calendar", dependencies: [node("clock")], overrides: true) { _ in Node() }
            try tests.register(Node.self, name: "fixture", dependencies: [node("calendar")]) { _ in Node() }
        case "amongAdded":              // clock → a → b → a
            try tests.register(Node.self, name: "clock", dependencies: [node("a")], overrides: true) { _ in Node() }
            try tests.register(Node.self, name: "a", dependencies: [node("b")]) { _ in Node() }
            try tests.register(Node.self, name: "b", dependencies: [node("a")]) { _ in Node() }
        case "reachesAScope":           // the singleton service holds a session-scoped fixture through the clock
            try tests.register(Node.self, name: "clock", dependencies: [node("fixture")], overrides: true) { _ in Node() }
            try tests.register(Node.self, name: "fixture", scope: .custom("session")) { _ in Node() }
        default:                        // two overrides sharing a chain of added ones, one depending on the other
            try tests.register(Node.self, name: "service", scope: .singleton, dependencies: [node("a"), node("clock")],
                               overrides: true) { _ in Node() }
            try tests.register(Node.self, name: "clock", dependencies: [node("b")], overrides: true) { _ in Node() }
            try tests.register(Node.self, name: "a", dependencies: [node("b")]) { _ in Node() }
            try tests.register(Node.self, name: "b") { _ in Node() }
            try tests.register(Node.self, name: "user", dependencies: [node("clock")]) { _ in Node() }
        }
        var whole = 0
        let together = registry.validateAll(stoppingAfter: .max, wholeValidations: &whole).problems.map(Self.render)
        #expect(together == registry.configurationNames.flatMap { registry.validate($0) }.map(Self.render))
        if scenario == "fine" {
            #expect(together.isEmpty)
        } else {
            #expect(together.count >= 2)        // in tests and in more
        }
        // (A cycle: tests is validated whole, and more from it.)
        #expect(whole == (scenario == "fine" || scenario == "reachesAScope" ? 1 : 2))
    }
}

extension IncrementalValidationTests {
    /// An override may change what the configuration inherits: a captive
    /// naming where it is registered, a scope a holder reaches through it,
    /// one it now reaches, its lifetime, an arguments problem naming it.
    /// Each is found from what it changes as validating the configuration
    /// whole finds it.
    @Test(arguments: ["capturedOverride", "reachingOverride", "newlyReaching", "providerArguments",
                      "nowScoped", "noLongerScoped", "nowPassingThrough", "argumentsChanged"])
    func anOverrideThatChangesWhatIsInheritedIsFoundFromWhatItChanges(_ scenario: String) throws {
        let registry = Registry()
        try registry.declareScope("session")
        let app = try registry.defineConfiguration("app")
        let tests = try registry.defineConfiguration("tests", extends: "app")
        func node(_ name: String) -> Dependency { .instance(Node.self, name: name) }
        switch scenario {
        case "capturedOverride":        // the captive names the session-scoped one's place: the override's
            try app.register(Node.self, name: "session", scope: .custom("session"), file: "app.lua", line: 1) { _ in Node() }
            try app.register(Node.self, name: "holder", scope: .singleton, dependencies: [node("session")]) { _ in Node() }
            try tests.register(Node.self, name: "session", scope: .custom("session"), overrides: true, file: "tests.lua", line: 1) { _ in Node() }
        case "reachingOverride":        // the singleton reached the session through it; no more
            try app.register(Node.self, name: "session", scope: .custom("session")) { _ in Node() }
            try app.register(Node.self, name: "link", dependencies: [node("session")]) { _ in Node() }
            try app.register(Node.self, name: "holder", scope: .singleton, dependencies: [node("link")]) { _ in Node() }
            try tests.register(Node.self, name: "link", overrides: true) { _ in Node() }
        case "newlyReaching":           // the singleton now reaches the session through it
            try app.register(Node.self, name: "session", scope: .custom("session")) { _ in Node() }
            try app.register(Node.self, name: "clock") { _ in Node() }
            try app.register(Node.self, name: "link", dependencies: [node("clock")]) { _ in Node() }     // above the session
            try app.register(Node.self, name: "holder", scope: .singleton, dependencies: [node("link")]) { _ in Node() }
            try tests.register(Node.self, name: "link", dependencies: [node("session")], overrides: true) { _ in Node() }
        case "nowScoped":               // a transient two steps below a singleton becomes session-scoped
            try app.register(Node.self, name: "clock") { _ in Node() }
            try app.register(Node.self, name: "link", dependencies: [node("clock")]) { _ in Node() }
            try app.register(Node.self, name: "holder", scope: .singleton, dependencies: [node("link")]) { _ in Node() }
            try app.register(Node.self, name: "other", scope: .weak, dependencies: [node("clock")]) { _ in Node() }
            try tests.register(Node.self, name: "clock", scope: .custom("session"), overrides: true, file: "tests.lua", line: 1) { _ in Node() }
        case "noLongerScoped":          // the captured one becomes a singleton
            try app.register(Node.self, name: "session", scope: .custom("session")) { _ in Node() }
            try app.register(Node.self, name: "link", dependencies: [node("session")]) { _ in Node() }
            try app.register(Node.self, name: "holder", scope: .singleton, dependencies: [node("link")]) { _ in Node() }
            try tests.register(Node.self, name: "session", scope: .singleton, overrides: true) { _ in Node() }
        case "nowPassingThrough":       // a singleton between them becomes transient: the holder now reaches the session
            try app.register(Node.self, name: "session", scope: .custom("session")) { _ in Node() }
            try app.register(Node.self, name: "middle", scope: .singleton, dependencies: [node("session")]) { _ in Node() }
            try app.register(Node.self, name: "link", dependencies: [node("middle")]) { _ in Node() }
            try app.register(Node.self, name: "holder", scope: .singleton, dependencies: [node("link")]) { _ in Node() }
            try tests.register(Node.self, name: "middle", scope: .transient, dependencies: [node("session")], overrides: true) { _ in Node() }
        case "argumentsChanged":        // an override taking arguments under an instance dependency
            try app.register(Node.self, name: "made") { _ in Node() }
            try app.register(Node.self, name: "user", dependencies: [node("made")]) { _ in Node() }
            try tests.register(Node.self, name: "made", argument: ("id", Int.self), overrides: true) { _, _ in Node() }
        default:                        // a provider's arguments problem names the called one's place
            try app.register(Node.self, name: "made", argument: ("id", Int.self), file: "app.lua", line: 1) { _, _ in Node() }
            try app.register(Node.self, name: "user", dependencies: [
                Dependency(ServiceKey(Node.self, name: "made"), kind: .provider, label: "make", arguments: [ArgumentSpec("name", String.self)])
            ]) { _ in Node() }
            try tests.register(Node.self, name: "made", argument: ("id", Int.self), overrides: true, file: "tests.lua", line: 1) { _, _ in Node() }
        }
        var whole = 0
        let together = registry.validateAll(stoppingAfter: .max, wholeValidations: &whole).problems.map(Self.render)
        #expect(together == registry.configurationNames.flatMap { registry.validate($0) }.map(Self.render))
        #expect(!together.isEmpty)
        #expect(whole == 1)
    }
}

extension IncrementalValidationTests {
    @Test func validatingStopsAfterALimitAndSaysSo() throws {
        let registry = Registry()
        // A duplicate at every level: level i has i of them (each inherited one restated).
        let root = try registry.defineConfiguration("c0")
        try root.register(Node.self, name: "clock") { _ in Node() }
        for i in 1...300 {
            let configuration = try registry.defineConfiguration("c\(i)", extends: "c\(i - 1)")
            try configuration.register(Node.self, name: "clock") { _ in Node() }
        }
        let all = registry.validate()
        #expect(all.count == 300 * 301 / 2)
        #expect(all.allSatisfy { $0.kind == .duplicateRegistration })
        let some = registry.validate(stoppingAfter: 1_000)
        #expect(some.stopped)
        #expect(some.problems.count == 1_000)
        #expect(some.problems.map(Self.render) == Array(all.prefix(1_000)).map(Self.render))
        let exactly = registry.validate(stoppingAfter: all.count)
        #expect(!exactly.stopped)
        #expect(exactly.problems.count == all.count)

        // Inside one configuration: 50 singletons each holding a list of 50 session-scoped contributions.
        try registry.declareScope("session")
        let captives = try registry.defineConfiguration("captives")
        for i in 0..<50 {
            try captives.register(Node.self, name: "part\(i)", into: .set, scope: .custom("session")) { _ in Node() }
            try captives.register(Node.self, name: "holder\(i)", scope: .singleton,
                                  dependencies: [Dependency(ServiceKey(.list(of: ServiceType(Node.self))))]) { _ in Node() }
        }
        #expect(registry.validate("captives").count == 2_500)
        let first = registry.validate("captives", stoppingAfter: 100)
        #expect(first.stopped && first.problems.count == 100)
        #expect(first.problems.allSatisfy { $0.kind == .captiveDependency })
        #expect(!registry.validate("captives", stoppingAfter: 2_500).stopped)
    }
}
