import Testing
@testable import FactoryRegistry

/// A scope opened with a value (the request a request scope serves) gives
/// that value to whatever resolves its key in the scope — and only there.
@Suite("Scopes opened with values")
struct ScopedValueTests {
    let registry = Registry()

    final class Request: Sendable { let path: String; init(_ path: String) { self.path = path } }
    final class Handler: Sendable { let request: Request; init(_ request: Request) { self.request = request } }

    func container() throws -> Container {
        try registry.declareScope("request")
        let app = try registry.defineConfiguration("app")
        try app.registerGiven(Request.self, inScope: "request")
        try app.register(Handler.self, scope: .custom("request"), dependencies: [.instance(Request.self)]) { r in
            Handler(try r.resolve())
        }
        try app.register(User.self, scope: .singleton) { _ in User("ann") }
        return try registry.container("app")
    }

    @Test func eachScopeGivesItsOwnValue() throws {
        let c = try container()
        let first = Request("/a"), second = Request("/b")
        let a = try c.openScope("request", with: [ScopedValue(first)])
        let b = try c.openScope("request", with: [ScopedValue(second)])
        let (requestA, requestB) = (try a.resolve(Request.self), try b.resolve(Request.self))
        #expect(requestA === first && requestB === second)
        let (handlerA, handlerB) = (try a.resolve(Handler.self), try b.resolve(Handler.self))
        #expect(handlerA.request === first && handlerB.request === second)
        try a.close()
        #expect(try b.resolve(Handler.self).request === second)
        try b.close()
        #expect(registry.validate("app").isEmpty)
    }

    @Test func aScopeOpenedWithoutItSaysSo() throws {
        let c = try container()
        let bare = try c.openScope("request")
        let error = registryError { _ = try bare.resolve(Handler.self) }
        #expect(error?.kind == .factoryFailed)
        #expect(error?.description.contains("Request is given when a 'request' scope opens, and this one was opened without it") == true,
                "\(String(describing: error))")
    }

    @Test func aValueForAKeyNotInTheScopeOpensNothing() throws {
        let c = try container()
        let missing = registryError { _ = try c.openScope("request", with: [ScopedValue(Cache(Lifecycle(), "Cache"))]) }
        #expect(missing?.kind == .missingRegistration && missing?.message.contains("nothing registers Cache") == true)
        let singleton = registryError { _ = try c.openScope("request", with: [ScopedValue(User("bob"))]) }
        #expect(singleton?.kind == .invalidRegistration && singleton?.message.contains("it is registered singleton") == true,
                "\(String(describing: singleton))")
        let twice = registryError { _ = try c.openScope("request", with: [ScopedValue(Request("/a")), ScopedValue(Request("/b"))]) }
        #expect(twice?.message.contains("given twice") == true)
        #expect(c.openScopeNames.isEmpty)
    }

    /// The scope does not close what it was given: its opener owns it.
    @Test func aGivenValueIsNotClosedWithTheScope() throws {
        final class Closable: ScopeBound, @unchecked Sendable {
            var closed = 0
            func scopeDidClose() { closed += 1 }
        }
        try registry.declareScope("job")
        let app = try registry.defineConfiguration("app")
        try app.registerGiven(Closable.self, inScope: "job")
        let given = Closable()
        let container = try registry.container("app")
        let job = try container.openScope("job", with: [ScopedValue(given)])
        #expect(try job.resolve(Closable.self) === given)
        try job.close()
        #expect(given.closed == 0)
    }
}
