import FactoryhostSupport
import Testing
@testable import FactoryRegistry

/// Which open scope a resolve from the container uses: never "the newest"
/// of several (a server's requests each open one, and the newest handed one
/// request another's), but the current one (`withCurrent`), or the only one.
@Suite("A resolve from the container uses an explicit scope, never the newest of several")
struct ScopeChoiceTests {
    let life = Lifecycle()
    let registry = Registry()

    private func requestContainer() throws -> Container {
        try registry.declareScope("request")
        try registry.declareScope("screen", in: "request")
        let app = try registry.defineConfiguration("app")
        try app.register(UserSession.self, scope: .custom("request")) { _ in UserSession(life, "UserSession") }
        try app.register(Cache.self, scope: .custom("screen")) { _ in Cache(life, "Cache") }
        return try registry.container("app")
    }

    @Test func ofSeveralOpenScopesNoneIsPickedAndTheErrorSaysWhatToDo() throws {
        let c = try requestContainer()
        let first = try c.openScope("request")
        let only = try c.resolve(UserSession.self)
        #expect(try first.resolve(UserSession.self) === only)            // one open: it is the one
        let second = try c.openScope("request")
        let error = registryError { _ = try c.resolve(UserSession.self) }
        #expect(error?.kind == .scopeAmbiguous, "\(String(describing: error))")
        #expect(error?.description.contains("several 'request' scopes are open: a resolve from the container does not pick one to hold UserSession") == true)
        #expect(error?.description.contains("scope.withCurrent") == true)
        // A provider made on the container chooses when it is called.
        let provider = try c.provider(UserSession.self)
        #expect(registryError { _ = try provider() }?.kind == .scopeAmbiguous)
        // Nor is a nested scope opened in the newest of several.
        #expect(registryError { _ = try c.openScope("screen") }?.kind == .scopeAmbiguous)
        try second.close()
        #expect(try c.resolve(UserSession.self) === only)                // one again
        #expect(try provider() === only)
        try first.close()
    }

    @Test func withCurrentChoosesTheScopeAndTheOneItIsIn() throws {
        let c = try requestContainer()
        let first = try c.openScope("request")
        let second = try c.openScope("request")
        let mine = try first.withCurrent { try c.resolve(UserSession.self) }
        #expect(try first.resolve(UserSession.self) === mine)
        #expect(try second.resolve(UserSession.self) !== mine)
        // A screen opened from the container inside the current request is in it.
        let screen = try first.withCurrent { try c.openScope("screen") }
        #expect(screen.parent === first)
        // The current screen: its own instances, and its request's.
        let (cache, session) = try screen.withCurrent { (try c.resolve(Cache.self), try c.resolve(UserSession.self)) }
        #expect(try screen.resolve(Cache.self) === cache && session === mine)
        // Outside it, nothing is current again.
        #expect(ScopeHandle.current == nil)
        #expect(registryError { _ = try c.resolve(UserSession.self) }?.kind == .scopeAmbiguous)
        try first.close()
        try second.close()
    }

    @Test func aCurrentScopeOutsideTheNameIsSaidAndAnotherContainersIsIgnored() throws {
        try registry.declareScope("session")
        let c = try requestContainer()
        let other = try registry.container("app")
        let request = try c.openScope("request")
        let session = try c.openScope("session")
        let error = registryError { try session.withCurrent { _ = try c.resolve(UserSession.self) } }
        #expect(error?.kind == .scopeNotOpen)
        #expect(error?.description.contains("resolved inside withCurrent of a 'session' scope, which is not inside a 'request' scope") == true,
                "\(String(describing: error))")
        // Another container's current scope says nothing about this one's: its only request is used.
        let otherRequest = try other.openScope("request")
        #expect(try otherRequest.withCurrent { try c.resolve(UserSession.self) } === request.resolve(UserSession.self))
        try request.close()
        try session.close()
        try otherRequest.close()
    }

    /// A scope whose handle is dropped without `close()` closes as it goes
    /// (100k dropped request scopes held +33 MB for good: a handler that threw
    /// before its close), and the container counts it.
    @Test func aDroppedScopeHandleClosesItsScope() throws {
        let c = try requestContainer()
        for _ in 0..<1_000 {
            let request = try c.openScope("request")
            _ = try request.resolve(UserSession.self)
        }
        #expect(life.alive == 0 && life.built("UserSession") == 1_000)
        #expect(c.openScopeNames.isEmpty)
        #expect(c.scopesDroppedOpen == 1_000)
        // Nested: a dropped screen closes alone; its request stays open while held.
        let request = try c.openScope("request")
        do {
            let screen = try request.openScope("screen")
            _ = try screen.resolve(Cache.self)
            #expect(c.openScopeNames == ["request", "screen"])
        }
        #expect(c.openScopeNames == ["request"] && life.deaths.last == "Cache")
        // A request dropped while its screen is held lives on in the screen (which holds it).
        var screen: ScopeHandle? = try c.openScope("request").openScope("screen")
        #expect(c.openScopeNames == ["request", "request", "screen"])
        screen = nil
        #expect(screen == nil && c.openScopeNames == ["request"])
        // One closed by hand is not counted.
        try request.close()
        #expect(c.scopesDroppedOpen == 1_003)         // the screen, then a request and its screen
    }

    /// A request's nested scopes, many and closed in any order: each kept
    /// by identity with its place (a list made opening the 200,000th a walk
    /// over the others, attack 12), and still closed newest first.
    @Test func manyNestedScopesCloseNewestFirstWhateverWasForgotten() throws {
        final class Told: ScopeBound, @unchecked Sendable {
            static let log = Protected<[Int]>([])
            let number: Int
            init(_ number: Int) { self.number = number }
            func scopeDidClose() { Told.log.withLock { $0.append(number) } }
        }
        try registry.declareScope("request")
        try registry.declareScope("screen", in: "request")
        let app = try registry.defineConfiguration("app")
        let counter = Protected(0)
        try app.register(Told.self, scope: .custom("screen")) { _ in Told(counter.withLock { $0 += 1; return $0 }) }
        let c = try registry.container("app")
        let request = try c.openScope("request")
        var screens: [ScopeHandle] = []
        for _ in 0..<5_000 {
            let screen = try request.openScope("screen")
            _ = try screen.resolve(Told.self)
            screens.append(screen)
        }
        // Every other one closed by hand, oldest first; the rest with the request.
        for (index, screen) in screens.enumerated() where index.isMultiple(of: 2) { try screen.close() }
        try request.close()
        let log = Told.log.withLock { $0 }
        let closedByHand = stride(from: 1, through: 5_000, by: 2).map { $0 }
        let closedWithRequest = stride(from: 5_000, through: 2, by: -2).map { $0 }
        #expect(log == closedByHand + closedWithRequest)
        #expect(c.openScopeNames.isEmpty)
    }

    /// Many requests at once, each in a task of its own: each gets its own
    /// request's instance (with "the newest", tasks got each other's).
    @Test func concurrentRequestsEachGetTheirOwn() async throws {
        let c = try requestContainer()
        let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    var wrong = 0
                    for _ in 0..<200 {
                        let request = try c.openScope("request")
                        let own = try request.resolve(UserSession.self)
                        let resolved = try await request.withCurrent { () async throws -> UserSession in
                            await Task.yield()
                            return try c.resolve(UserSession.self)
                        }
                        if resolved !== own { wrong += 1 }
                        try request.close()
                    }
                    return wrong
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }
}
