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

    /// Fixes after an attack (each failed before).
    /// A parent closed while its child is made (by the child's eager
    /// singleton) closes the child too, and the child is not handed out
    /// (attack 13: it was, open, and built the parent's transients).
    @Test func aParentClosedWhileItsChildIsMadeHandsOutNoChild() throws {
        final class Box: @unchecked Sendable { var parent: Container? }
        final class Closer: @unchecked Sendable {}
        let box = Box()
        let (_, app) = try parent()
        box.parent = app
        let closer = Registration(key: ServiceKey(Closer.self), scope: .singleton, eager: true, origin: Origin(file: "test", line: 2),
                                  factory: TypedFactory { _, _ in try box.parent?.close(); return Closer() })
        let error = registryError { _ = try app.child([closer]) }
        #expect(error?.kind == .containerClosed && error?.message.contains("was closed while the child was made") == true,
                "\(String(describing: error))")
        #expect(app.isClosed && !app.hasLiveChildren)
    }

    @Test func aChildsSingletonCannotCaptureTheParentsScopedInstance() throws {
        let (_, app) = try parent()
        final class Holder: @unchecked Sendable { let state: ScreenState; init(_ state: ScreenState) { self.state = state } }
        let holder = Registration(key: ServiceKey(Holder.self), scope: .singleton,
                                  dependencies: [.instance(ScreenState.self)], origin: Origin(file: "test", line: 3),
                                  factory: TypedFactory { r, _ in Holder(try r.resolve()) })
        let child = try app.child([holder])
        _ = try app.openScope("screen")
        #expect(registryError { _ = try child.resolve(Holder.self) }?.kind == .captiveDependency)
    }

    @Test func aCycleThroughAChildIsACycle() throws {
        final class Box: @unchecked Sendable { var child: Container? }
        let box = Box()
        let registry = Registry()
        let app = try registry.defineConfiguration("app")
        try app.register(Cache.self, scope: .singleton) { _ in
            _ = try box.child?.resolve(Cache.self)
            return Cache()
        }
        let container = try registry.container("app")
        box.child = try container.child([])
        let error = registryError { _ = try container.resolve(Cache.self) }
        #expect(error?.kind == .cycle, "\(String(describing: error))")
        #expect(error?.message.hasPrefix("dependency cycle: Cache is being built, and building it asked for it again") == true)
    }

    @Test func closingAParentClosesItsChildrenFirst() throws {
        final class Worker: ScopeBound, @unchecked Sendable {
            let name: String, log: Log
            init(_ name: String, _ log: Log) { self.name = name; self.log = log }
            func scopeDidClose() { log.lines.append(name) }
        }
        final class Log: @unchecked Sendable { var lines: [String] = [] }
        let log = Log()
        let registry = Registry()
        let app = try registry.defineConfiguration("app")
        try app.register(Worker.self, scope: .singleton) { _ in Worker("parent", log) }
        let container = try registry.container("app")
        _ = try container.resolve(Worker.self)
        let child = try container.child([Registration(key: ServiceKey(Worker.self, name: "own"), scope: .singleton,
                                                      origin: Origin(file: "test", line: 4),
                                                      factory: TypedFactory { _, _ in Worker("child", log) })])
        _ = try child.resolve(Worker.self, name: "own")
        try container.close()
        #expect(log.lines == ["child", "parent"])
        #expect(child.isClosed)
        #expect(registryError { _ = try child.resolve(Worker.self) }?.message == "cannot build Worker: container 'app' is closed")
    }
}

