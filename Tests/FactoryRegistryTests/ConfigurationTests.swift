import Testing
@testable import FactoryRegistry

@Suite("Configurations: extends, overrides, duplicates, arguments, providers")
struct ConfigurationTests {
    let life = Lifecycle()
    let registry = Registry()

    @Test func extendingOverridesOnlyWhatItSays() throws {
        let app = try registry.defineConfiguration("app")
        try registerGraph9(app, life, storeScope: .singleton)
        let tests = try registry.defineConfiguration("app-tests", extends: "app")
        try tests.register(Store.self, scope: .singleton, dependencies: [.instance(Logger.self)], overrides: true) { r in
            Store(life, logger: try r.resolve())
        }
        try tests.register(Logger.self, overrides: true) { _ in Logger(life, "TestLogger") }
        let vm = try registry.container("app-tests").resolve(ViewModel.self)
        #expect(vm.store.logger.tag == "TestLogger")
        #expect(try registry.container("app").resolve(ViewModel.self).store.logger.tag == "Logger")
        #expect(try registry.registrations(in: "app-tests").count == 6)
        #expect(try registry.registrations(in: "app-tests").first { $0.key == ServiceKey(Logger.self) }?.configuration == "app-tests")
        #expect(registry.validate().isEmpty)
    }

    @Test func duplicateInOneConfigurationNamesBothOrigins() throws {
        let app = try registry.defineConfiguration("app")
        try app.register(Cache.self, file: "app.lua", line: 3) { _ in Cache(life, "a") }
        let error = registryError { try app.register(Cache.self, file: "app.lua", line: 9) { _ in Cache(life, "b") } }
        #expect(error?.description == """
            Cache is registered twice in configuration 'app'
              first at app.lua:3
              again at app.lua:9 (say it overrides to replace the first)
            """)
        // Saying it overrides replaces the first.
        try app.register(Cache.self, overrides: true, file: "app.lua", line: 12) { _ in Cache(life, "c") }
        #expect(try registry.container("app").resolve(Cache.self).tag == "c")
        #expect(registry.validate().isEmpty)
    }

    @Test func inheritedKeyWithoutOverrideIsAProblem() throws {
        let app = try registry.defineConfiguration("app")
        try app.register(Cache.self, file: "app.lua", line: 3) { _ in Cache(life, "a") }
        let tests = try registry.defineConfiguration("app-tests", extends: "app")
        try tests.register(Cache.self, file: "tests.lua", line: 4) { _ in Cache(life, "b") }
        let error = registryError { _ = try registry.container("app-tests") }
        #expect(error?.kind == .duplicateRegistration)
        #expect(error?.description == """
            Cache is registered by 'app' and again by 'app-tests' in configuration 'app-tests'
              first at app.lua:3
              again at tests.lua:4 (say it overrides to replace the first)
            """)
        #expect(registry.validate("app").isEmpty)
    }

    @Test func overridingNothingIsAProblem() throws {
        let app = try registry.defineConfiguration("app")
        try app.register(Cache.self, overrides: true, file: "app.lua", line: 2) { _ in Cache(life, "a") }
        let tests = try registry.defineConfiguration("app-tests", extends: "app")
        try tests.register(Logger.self, overrides: true, file: "tests.lua", line: 8) { _ in Logger(life, "b") }
        let problems = registry.validate()
        #expect(problems.map(\.kind) == [.nothingToOverride, .nothingToOverride, .nothingToOverride])
        #expect(problems.first?.details == ["at app.lua:2: 'app' extends no configuration"])
        #expect(problems.last?.details == ["at tests.lua:8: 'app' has no Logger"])
    }

    @Test func unknownAndCyclicParents() throws {
        try registry.defineConfiguration("a", extends: "b", file: "x.lua", line: 1)
        try registry.defineConfiguration("b", extends: "a", file: "x.lua", line: 2)
        try registry.defineConfiguration("c", extends: "nowhere", file: "x.lua", line: 3)
        let cycle = registryError { _ = try registry.container("a") }
        #expect(cycle?.kind == .configurationCycle)
        #expect(cycle?.message == "configurations extend each other in a cycle: a → b → a")
        let unknown = registryError { _ = try registry.container("c") }
        #expect(unknown?.message == "configuration 'c' extends 'nowhere', which is not defined")
        let twice = registryError { try registry.defineConfiguration("a", file: "y.lua", line: 9) }
        #expect(twice?.details == ["first at x.lua:1", "again at y.lua:9"])
    }

    /// `check` counts registrations without flattening a plan; the count
    /// must be the plan's (inherited keys once, overrides not twice).
    @Test func manyKeysOfOneTypeAreFoundDuplicatedAndOverriddenInPlace() throws {
        // The configuration's key index compares through its registrations:
        // every key must still be found across the index's growth, a key of
        // another name or type must not be, and a duplicate must be caught.
        let app = try registry.defineConfiguration("app")
        final class Item: Sendable { let n: Int; init(_ n: Int) { self.n = n } }
        for i in 0..<5_000 {
            try app.register(Item.self, name: "i\(i)", file: "app.lua", line: i + 1) { _ in Item(i) }
        }
        try app.register(Item.self, file: "app.lua", line: 9_000) { _ in Item(-1) }
        for i in stride(from: 0, to: 5_000, by: 7) {
            #expect(app.registration(for: ServiceKey(Item.self, name: "i\(i)"))?.origin.line == i + 1)
        }
        #expect(app.registration(for: ServiceKey(Item.self))?.origin.line == 9_000)
        #expect(app.registration(for: ServiceKey(Item.self, name: "i5000")) == nil)
        #expect(app.registration(for: ServiceKey(Cache.self, name: "i1")) == nil)
        let duplicate = registryError { try app.register(Item.self, name: "i4321", file: "app.lua", line: 9_001) { _ in Item(0) } }
        #expect(duplicate?.kind == .duplicateRegistration)
        #expect(duplicate?.details.first == "first at app.lua:4322")
        try app.register(Item.self, name: "i17", overrides: true, file: "app.lua", line: 9_002) { _ in Item(17_000) }
        #expect(app.registrations.count == 5_001)
        #expect(app.registrations[17].origin.line == 9_002)
        #expect(try (registry.container("app").resolve(Item.self, name: "i17")).n == 17_000)
        #expect(try (registry.container("app").resolve(Item.self, name: "i4999")).n == 4_999)
    }

    @Test func registrationCountsMatchTheFlattenedPlan() throws {
        let app = try registry.defineConfiguration("app")
        try registerGraph9(app, life, storeScope: .singleton)
        let tests = try registry.defineConfiguration("app-tests", extends: "app")
        try tests.register(Logger.self, overrides: true) { _ in Logger(life, "TestLogger") }
        try tests.register(Cache.self, name: "extra") { _ in Cache(life, "x") }
        let deeper = try registry.defineConfiguration("deeper", extends: "app-tests")
        try deeper.register(Logger.self) { _ in Logger(life, "again") }       // a duplicate (a problem), counted once
        try registry.defineConfiguration("a", extends: "b")
        try registry.defineConfiguration("b", extends: "a")
        try registry.defineConfiguration("c", extends: "nowhere").register(Cache.self) { _ in Cache(life, "c") }
        for name in ["app", "app-tests", "deeper", "a", "b", "c"] {
            #expect(try registry.registrationCount(in: name) == registry.registrations(in: name).count, "\(name)")
        }
        #expect(try registry.registrationCount(in: "app-tests") == 7)
        #expect(registryError { _ = try registry.registrationCount(in: "nope") }?.kind == .unknownConfiguration)
    }

    /// Registrations share their fields until one is changed: a copy that
    /// is changed leaves the other as it was.
    @Test func registrationsAreValuesThoughTheyShareStorage() throws {
        let original = Registration(key: ServiceKey(Cache.self), scope: .singleton, origin: Origin(file: "a.lua", line: 1),
                                    factory: TypedFactory { _, _ in Cache(life, "a") })
        var changed = original
        changed.scope = .transient
        changed.origin = Origin(file: "b.lua", line: 2)
        #expect(original.scope == .singleton && original.origin == Origin(file: "a.lua", line: 1))
        #expect(changed.scope == .transient && changed.origin == Origin(file: "b.lua", line: 2))
        let app = try registry.defineConfiguration("app")
        try app.add(original)
        #expect(original.configuration == "")                  // the caller's copy is not stamped
        #expect(app.registrations.first?.configuration == "app")
    }

    @Test func runtimeArgumentsAreTypedAndChecked() throws {
        final class Pizza: Sendable {
            let radius: Double, ingredients: [String], slices: Int
            init(_ r: Double, _ i: [String], _ s: Int) { radius = r; ingredients = i; slices = s }
        }
        final class Child: Sendable { let user: User; init(_ u: User) { user = u } }
        let app = try registry.defineConfiguration("app")
        try app.register(Child.self, argument: ("user", User.self)) { _, user in Child(user) }
        try app.register(Pizza.self, arguments: ("radius", Double.self), ("ingredients", [String].self), ("slices", Int.self)) { _, r, i, s in
            Pizza(r, i, s)
        }
        let c = try registry.container("app")
        #expect(try c.resolve(Child.self, argument: User("ana")).user.name == "ana")
        let pizza = try c.resolve(Pizza.self, arguments: 30.0, ["basil"], 8)
        #expect(pizza.radius == 30 && pizza.ingredients == ["basil"] && pizza.slices == 8)
        let wrongType = registryError { _ = try c.resolve(Child.self, argument: "ana") }
        #expect(wrongType?.message == "argument 'user' of Child: expected User, got String")
        let wrongCount = registryError { _ = try c.resolve(Child.self) }
        #expect(wrongCount?.message == "Child takes 1 runtime argument (user: User), got 0")
        let second = registryError { _ = try c.resolve(Pizza.self, arguments: 30.0, "basil", 8) }
        #expect(second?.message == "argument 'ingredients' of Pizza: expected Array<String>, got String")
        let scoped = registryError {
            try app.add(Registration(key: ServiceKey(Token.self), scope: .singleton, arguments: [ArgumentSpec("v", Int.self)],
                                     origin: Origin(file: "a.lua", line: 1), factory: TypedFactory { _, _ in Token(value: 1) }))
        }
        #expect(scoped?.kind == .invalidRegistration)
        #expect(scoped?.message == "Token takes runtime arguments, so it must be transient (it is singleton)")
    }

    @Test func providersResolveLaterAndTakeArguments() throws {
        final class Screen: Sendable { let user: User; init(_ u: User) { user = u } }
        final class Main: Sendable {
            let makeCache: Provider<Cache>, makeScreen: Provider<Screen>
            init(_ c: Provider<Cache>, _ s: Provider<Screen>) { makeCache = c; makeScreen = s }
        }
        let app = try registry.defineConfiguration("app")
        try app.register(Cache.self) { _ in Cache(life, "Cache") }
        try app.register(Screen.self, argument: ("user", User.self)) { _, user in Screen(user) }
        try app.register(Main.self, dependencies: [.provider(Cache.self), .provider(Screen.self)]) { r in
            Main(try r.provider(Cache.self), try r.provider(Screen.self))
        }
        let container = try registry.container("app")       // providers do not keep it alive
        let main = try container.resolve(Main.self)
        #expect(life.built("Cache") == 0)
        let a = try main.makeCache(), b = try main.makeCache()
        #expect(a !== b)
        #expect(try main.makeScreen(User("bo")).user.name == "bo")
        #expect(registryError { _ = try main.makeScreen() }?.kind == .argumentMismatch)
        // An instance dependency on something that needs arguments is caught by validation.
        try app.register(Logger.self, dependencies: [.instance(Screen.self)]) { _ in Logger(life, "L") }
        let problems = registry.validate()
        #expect(problems.map(\.kind) == [.argumentMismatch])
        #expect(problems.first?.message == "Logger depends on an instance of Screen, which takes runtime arguments (user: User)")
    }

    @Test func containersKeepTheConfigurationTheyWereMadeFrom() throws {
        let app = try registry.defineConfiguration("app")
        try app.register(Cache.self) { _ in Cache(life, "Cache") }
        let before = try registry.container("app")
        try app.register(Logger.self) { _ in Logger(life, "Logger") }
        #expect(registryError { _ = try before.resolve(Logger.self) }?.kind == .missingRegistration)
        #expect(try registry.container("app").resolve(Logger.self).tag == "Logger")
    }
}
