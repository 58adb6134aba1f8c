import Testing
@testable import FactoryRegistry

/// Contributions to a list or a map of one type (Guice's Multibinder and
/// MapBinder): in declaration order, extended and overridden by
/// configurations like any registration, validated through the collection.
@Suite("Multi-bindings: sets and maps of contributions")
struct MultiBindingTests {
    final class Handler: @unchecked Sendable { let name: String; init(_ name: String) { self.name = name } }

    @Test func aListAndAMapInDeclarationOrderWithOverrides() throws {
        let registry = Registry()
        let app = try registry.defineConfiguration("app")
        try app.register(Handler.self, name: "json", into: .set) { _ in Handler("json") }
        try app.register(Handler.self, name: "xml", into: .set) { _ in Handler("xml") }
        try app.register(Handler.self, into: .map(key: "csv")) { _ in Handler("csv") }
        let tests = try registry.defineConfiguration("tests", extends: "app")
        try tests.register(Handler.self, name: "xml", into: .set, overrides: true) { _ in Handler("fake xml") }
        try tests.register(Handler.self, name: "extra", into: .set) { _ in Handler("extra") }

        #expect(try registry.container("app").resolveList(Handler.self).map(\.name) == ["json", "xml"])
        #expect(try registry.container("tests").resolveList(Handler.self).map(\.name) == ["json", "fake xml", "extra"])
        let map = try registry.container("app").resolveMap(Handler.self)
        #expect(map.map(\.key) == ["csv"] && map.map(\.value.name) == ["csv"])
        // Each contribution is a registration of its own.
        #expect(try registry.container("app").resolve(Handler.self, name: "json").name == "json")
        #expect(registry.validate().isEmpty)
    }

    @Test func aDependentGetsTheCollectionAndCheckSeesItsEdges() throws {
        final class Router: @unchecked Sendable { let handlers: [Any]; init(_ handlers: [Any]) { self.handlers = handlers } }
        let registry = Registry()
        try registry.declareScope("session")
        let app = try registry.defineConfiguration("app")
        try app.register(Handler.self, name: "a", into: .set) { _ in Handler("a") }
        try app.register(Handler.self, name: "b", into: .set, scope: .custom("session")) { _ in Handler("b") }
        let list = ServiceKey(.list(of: ServiceType(Handler.self)))
        try app.register(Router.self, scope: .singleton, dependencies: [Dependency(list, label: "handlers")]) { r in
            Router(try r.resolveAny(list) as? [Any] ?? [])
        }
        let problems = registry.validate()
        #expect(problems.map(\.kind) == [.captiveDependency], "\(problems)")
        #expect(problems.first?.details.first == "path: Router → [Handler] → Handler#b")
    }

    /// A dependency on a collection nothing contributes to is an empty one.
    @Test func noContributionsIsAnEmptyCollection() throws {
        let registry = Registry()
        let app = try registry.defineConfiguration("app")
        let list = ServiceKey(.list(of: ServiceType(Handler.self)))
        try app.register(Int.self, dependencies: [Dependency(list)]) { r in (try r.resolveAny(list) as? [Any])?.count ?? -1 }
        #expect(try registry.container("app").resolve(Int.self) == 0)
        #expect(try registry.container("app").resolveList(Handler.self).isEmpty)
        #expect(registry.validate().isEmpty)
    }

    /// Fixes after an attack (each failed before).
    @Test func aContributionKeepsWhatItIsAcrossOverridesAndNames() throws {
        let registry = Registry()
        let app = try registry.defineConfiguration("app")
        try app.register(Handler.self, name: "xml", into: .set) { _ in Handler("xml") }
        let tests = try registry.defineConfiguration("tests", extends: "app")
        try tests.register(Handler.self, name: "xml", overrides: true) { _ in Handler("plain") }
        let problems = registry.validate("tests")
        #expect(problems.first?.message == "Handler#xml is a contribution to [Handler] (set) in 'app' and a plain registration in 'tests'",
                "\(problems)")
        // A set's name and a map's key alike: two registrations of one key, said so.
        let error = registryError { try app.register(Handler.self, into: .map(key: "xml")) { _ in Handler("map") } }
        #expect(error?.kind == .duplicateRegistration)
        #expect(error?.details.last?.contains("give one of them another name") == true)
        // Asked for directly, a collection nothing contributes to is empty too.
        let empty = try registry.container("app").resolveAny(ServiceKey(.map(of: ServiceType(Handler.self))))
        #expect((empty as? ContributedMap)?.keys.isEmpty == true)
    }
}

