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
        #expect(byKind[.unknownScope]?.first?.message == "Store is registered in scope 'sesion', which is not declared")
        #expect(byKind[.captiveDependency]?.first?.origin == Origin(file: "app.lua", line: 5))
        #expect(byKind[.cycle]?.first?.message == "dependency cycle: A → B → A")
        #expect(life.alive == 0 && life.built("A") == 0)      // nothing was built
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
}
