import Testing
@testable import FactoryRegistry

@Suite("Resolution errors name the configuration, the path and the origins")
struct ErrorReportTests {
    let life = Lifecycle()
    let registry = Registry()

    @Test func missingRegistrationNamesWhoNeedsIt() throws {
        let app = try registry.defineConfiguration("app")
        try app.register(MovieLoader.self, dependencies: [.instance(Cache.self), .instance(HTTPSession.self)], file: "app.lua", line: 14) { r in
            MovieLoader(life, cache: try r.resolve(), session: try r.resolve())
        }
        try app.register(Cache.self) { _ in Cache(life, "Cache") }
        let error = registryError { _ = try registry.container("app").resolve(MovieLoader.self) }
        #expect(error?.kind == .missingRegistration)
        #expect(error?.description == """
            no registration for HTTPSession in configuration 'app'
              resolution path: MovieLoader → HTTPSession
              required by MovieLoader (app.lua:14)
            """)
        #expect(error?.origin == Origin(file: "app.lua", line: 14))
        let top = registryError { _ = try registry.container("app").resolve(Logger.self) }
        #expect(top?.description == "no registration for Logger in configuration 'app'")
    }

    @Test func cycleIsReportedWithItsWholePath() throws {
        final class A: Sendable {}
        final class B: Sendable {}
        final class C: Sendable {}
        let app = try registry.defineConfiguration("app")
        try app.register(A.self, dependencies: [.instance(B.self)]) { r in _ = try r.resolve(B.self); return A() }
        try app.register(B.self, dependencies: [.instance(C.self)]) { r in _ = try r.resolve(C.self); return B() }
        try app.register(C.self, dependencies: [.instance(A.self)]) { r in _ = try r.resolve(A.self); return C() }
        let error = registryError { _ = try registry.container("app").resolve(A.self) }
        #expect(error?.kind == .cycle)
        #expect(error?.message == "dependency cycle: A → B → C → A")
        #expect(error?.path == ["A", "B", "C", "A"])
        let problems = registry.validate("app")
        #expect(problems.count == 1)
        #expect(problems.first?.message.hasPrefix("dependency cycle: ") == true)
        #expect(problems.first?.message.split(separator: "→").count == 4)
    }

    /// A chain of named registrations of one type, `depth` long.
    func chain(_ depth: Int) throws {
        let app = try registry.defineConfiguration("app")
        try app.register(Token.self, name: "0") { _ in Token(value: 0) }
        for i in 1...depth {
            try app.register(Token.self, name: "\(i)", dependencies: [.instance(Token.self, name: "\(i - 1)")]) { r in
                Token(value: try r.resolve(Token.self, name: "\(i - 1)").value + 1)
            }
        }
    }

    @Test func deepAcyclicChainsResolve() throws {
        try chain(100)
        #expect(try registry.container("app").resolve(Token.self, name: "100").value == 100)
        #expect(registry.validate().isEmpty)
    }

    @Test func pathologicallyDeepChainsFailCleanlyInsteadOfCrashing() throws {
        try chain(50_000)
        let error = registryError { _ = try registry.container("app").resolve(Token.self, name: "50000") }
        #expect(error?.kind == .tooDeep)
        #expect(error?.message.hasPrefix("the graph is too deep to build: ") == true)
        #expect(error?.description.contains("more …") == true)
        #expect(registry.validate().isEmpty)     // validation walks it without recursion
    }

    @Test func undeclaredDependencyIsRefused() throws {
        let app = try registry.defineConfiguration("app")
        try app.register(Cache.self) { _ in Cache(life, "Cache") }
        try app.register(MovieLoader.self, dependencies: [.instance(Cache.self)], file: "app.lua", line: 3) { r in
            MovieLoader(life, cache: try r.resolve(), session: try r.resolve())
        }
        try app.register(HTTPSession.self) { _ in HTTPSession(life, "HTTPSession") }
        let error = registryError { _ = try registry.container("app").resolve(MovieLoader.self) }
        #expect(error?.kind == .undeclaredDependency)
        #expect(error?.message == "the factory for MovieLoader asked for an instance of HTTPSession, which it does not declare")
        #expect(error?.details == ["registered at app.lua:3; add it to the dependencies"])
    }

    @Test func captiveDependencyIsRefusedAtRuntimeToo() throws {
        try registry.declareScope("session")
        let app = try registry.defineConfiguration("app")
        try app.register(UserSession.self, scope: .custom("session"), file: "app.lua", line: 2) { _ in UserSession(life, "UserSession") }
        try app.register(Cache.self, dependencies: [.instance(UserSession.self)]) { r in _ = try r.resolve(UserSession.self); return Cache(life, "Cache") }
        try app.register(Logger.self, scope: .singleton, dependencies: [.instance(Cache.self)], file: "app.lua", line: 9) { r in
            _ = try r.resolve(Cache.self)
            return Logger(life, "Logger")
        }
        let c = try registry.container("app")
        let session = try c.openScope("session")
        let error = registryError { _ = try session.resolve(Logger.self) }
        #expect(error?.kind == .captiveDependency)
        #expect(error?.message == "captive dependency: singleton Logger would keep session-scoped instances after their scope closes")
        #expect(error?.path == ["Logger", "Cache", "UserSession"])
        let problems = registry.validate("app")
        #expect(problems.map(\.kind) == [.captiveDependency])
        #expect(problems.first?.details.first == "path: Logger → Cache → UserSession")
        #expect(problems.first?.origin == Origin(file: "app.lua", line: 9))
        // Both end with the two ways out.
        let fix = "to fix: make Logger session-scoped (or scoped within it), or have it depend on a provider on the way to "
            + "UserSession (deps = { x = provider \"UserSession\" }; in Swift .provider(…)): it resolves when called, in the scope open then"
        #expect(error?.details.last == fix)
        #expect(problems.first?.details.last == fix)
    }

    @Test func factoryFailureCarriesThePath() throws {
        struct Offline: Error, CustomStringConvertible { var description: String { "network is offline" } }
        let app = try registry.defineConfiguration("app")
        try app.register(HTTPSession.self, file: "net.lua", line: 7) { _ in throw Offline() }
        try app.register(Cache.self) { _ in Cache(life, "Cache") }
        try app.register(MovieLoader.self, dependencies: [.instance(Cache.self), .instance(HTTPSession.self)]) { r in
            MovieLoader(life, cache: try r.resolve(), session: try r.resolve())
        }
        let error = registryError { _ = try registry.container("app").resolve(MovieLoader.self) }
        #expect(error?.description == """
            the factory for HTTPSession failed: network is offline in configuration 'app'
              resolution path: MovieLoader → HTTPSession
              registered at net.lua:7
            """)
        #expect(life.alive == 0)   // the Cache built before the failure was released
    }

    @Test func untypedFactoryReturningTheWrongTypeIsCaught() throws {
        let app = try registry.defineConfiguration("app")
        try app.add(Registration(key: ServiceKey(Cache.self), origin: Origin(file: "app.lua", line: 5),
                                 factory: UntypedFactory { _, _ in "not a cache" }))
        let error = registryError { _ = try registry.container("app").resolve(Cache.self) }
        #expect(error?.kind == .wrongType)
        #expect(error?.message == "the factory for Cache returned a value of type String, expected Cache")
        #expect(error?.origin == Origin(file: "app.lua", line: 5))
    }

    @Test func unknownConfigurationListsTheKnownOnes() throws {
        try registry.defineConfiguration("app")
        try registry.defineConfiguration("app-tests", extends: "app")
        let error = registryError { _ = try registry.container("ap") }
        #expect(error?.description == "no configuration named 'ap', did you mean 'app'?\n  defined: app, app-tests")
        let far = registryError { _ = try registry.container("billing") }
        #expect(far?.description == "no configuration named 'billing'\n  defined: app, app-tests")
    }
}

@Suite("A place's file name cannot forge a line")
struct OriginTextTests {
    @Test func aNewlineInAFileNameIsWrittenNotPrinted() {
        #expect(Origin(file: "app.lua", line: 3).description == "app.lua:3")
        #expect(Origin(file: "x\nforged.lua:1: ok.lua", line: 2).description == "x\\nforged.lua:1: ok.lua:2")
        #expect(Origin(file: "a\rb", line: 1).description == "a\\rb:1")
    }
}
