import Testing
@testable import FactoryRegistry

/// A child container overrides some registrations of a live one and shares
/// what the parent owns; a parent singleton never captures a child's
/// registration.
@Suite("Child containers")
struct ChildContainerTests {
    final class Session: @unchecked Sendable { let url: String; init(_ url: String) { self.url = url } }
    final class Cache: @unchecked Sendable {}
    final class Loader: @unchecked Sendable {
        let session: Session, cache: Cache
        init(_ session: Session, _ cache: Cache) { self.session = session; self.cache = cache }
    }
    final class Client: @unchecked Sendable { let session: Session; init(_ session: Session) { self.session = session } }
    final class ScreenState: @unchecked Sendable {}

    private func parent() throws -> (Registry, Container) {
        let registry = Registry()
        try registry.declareScope("screen")
        let app = try registry.defineConfiguration("app")
        try app.register(Cache.self, scope: .singleton) { _ in Cache() }
        try app.register(Session.self, scope: .singleton) { _ in Session("real") }
        try app.register(Loader.self, dependencies: [.instance(Session.self), .instance(Cache.self)]) { r in
            Loader(try r.resolve(), try r.resolve())
        }
        try app.register(Client.self, scope: .singleton, dependencies: [.instance(Session.self)]) { r in Client(try r.resolve()) }
        try app.register(ScreenState.self, scope: .custom("screen")) { _ in ScreenState() }
        return (registry, try registry.container("app"))
    }

    private func fakeSession() -> Registration {
        Registration(key: ServiceKey(Session.self), scope: .singleton, origin: Origin(file: "test", line: 1),
                     factory: TypedFactory { _, _ in Session("fake") })
    }

    @Test func overridesApplyToWhatTheChildBuildsAndTheParentsOwnStaysItsOwn() throws {
        let (_, app) = try parent()
        let child = try app.child([fakeSession()])
        let loader = try child.resolve(Loader.self)
        #expect(loader.session.url == "fake")                             // the child's override
        #expect(loader.cache === (try app.resolve(Cache.self)))           // the parent's singleton, shared
        // A parent singleton is the parent's, built with the parent's registrations.
        #expect(try child.resolve(Client.self).session.url == "real")
        #expect(try child.resolve(Client.self) === app.resolve(Client.self))
        #expect(try app.resolve(Loader.self).session.url == "real")
        #expect(child.parent === app)
    }

    @Test func theParentsOpenScopesAreShared() throws {
        let (_, app) = try parent()
        let screen = try app.openScope("screen")
        let child = try app.child([fakeSession()])
        #expect(try child.resolve(ScreenState.self) === screen.resolve(ScreenState.self))
        try screen.close()
        #expect(registryError { _ = try child.resolve(ScreenState.self) }?.kind == .scopeNotOpen)
    }

    @Test func closingTheChildClosesOnlyItsOwn() throws {
        let (_, app) = try parent()
        let child = try app.child([fakeSession()])
        let fake = try child.resolve(Session.self)
        try child.close()
        #expect(child.isClosed && !app.isClosed)
        #expect(try app.resolve(Cache.self) === app.resolve(Cache.self))
        #expect(fake.url == "fake")
        #expect(registryError { _ = try child.resolve(Session.self) }?.message == "cannot build Session: container 'app' is closed")
    }

    @Test func badChildrenAreErrors() throws {
        let (_, app) = try parent()
        #expect(registryError { _ = try app.child([fakeSession(), fakeSession()]) }?.kind == .duplicateRegistration)
        try app.close()
        #expect(registryError { _ = try app.child([]) }?.message == "cannot make a child: container 'app' is closed")
    }

    /// A child's contributions join the parent's collections (in the child).
    @Test func aChildAddsToCollections() throws {
        let registry = Registry()
        let app = try registry.defineConfiguration("app")
        try app.register(Cache.self, name: "a", into: .set) { _ in Cache() }
        let container = try registry.container("app")
        var extra = Registration(key: ServiceKey(Cache.self, name: "b"), origin: Origin(file: "test", line: 2),
                                 factory: TypedFactory { _, _ in Cache() })
        extra.contribution = .set
        #expect(try container.child([extra]).resolveList(Cache.self).count == 2)
        #expect(try container.resolveList(Cache.self).count == 1)
    }
}
