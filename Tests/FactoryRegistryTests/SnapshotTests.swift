import Testing
@testable import FactoryRegistry

/// `Registry.snapshot()` / `restore(_:)`: what the test runner uses so that a
/// test's declarations never reach the next test.
@Suite("Registry snapshots")
struct SnapshotTests {
    let life = Lifecycle()

    @Test func restoreForgetsConfigurationsScopesAndRegistrationsDeclaredSince() throws {
        let registry = Registry()
        let app = try registry.defineConfiguration("app")
        try app.register(Logger.self) { _ in Logger(life, "Logger") }
        let declared = registry.snapshot()
        try registry.defineConfiguration("scratch")
        try registry.declareScope("session")
        try app.register(Cache.self) { _ in Cache(life, "Cache") }
        try registry.restore(declared)
        #expect(registry.configurationNames == ["app"])
        #expect(registry.scopes.isEmpty)
        #expect(try registry.registrations(in: "app").map(\.key) == [ServiceKey(Logger.self)])
        // The same names can be declared again, as in the next test.
        try registry.defineConfiguration("scratch")
        try app.register(Cache.self) { _ in Cache(life, "Cache") }
        #expect(try registry.container("app").resolve(Cache.self).tag == "Cache")
    }

    @Test func aSnapshotOfAnotherRegistryIsRefused() throws {
        let one = Registry(), other = Registry()
        try other.defineConfiguration("other")
        let snapshot = other.snapshot()
        #expect(throws: RegistryError.self) { try one.restore(snapshot) }
        do {
            try one.restore(snapshot)
        } catch let error as RegistryError {
            #expect(error.message == "cannot restore a snapshot taken of another registry")
        }
        #expect(one.configurationNames.isEmpty)
    }
}
