import Testing
@testable import FactoryRegistry

/// Lifetimes that must end, and recursions that must end with a message.
@Suite("No leaks, no runaway recursion")
struct LeakTests {
    let life = Lifecycle()
    let registry = Registry()

    /// Holds a container weakly, so the resolve inside its factory is through a capture.
    final class Box: @unchecked Sendable { weak var container: Container? }

    @Test func aNestedScopeWhoseParentIsNeverClosedIsFreedWithItsContainer() throws {
        try registry.declareScope("session")
        try registry.declareScope("screen", in: "session")
        _ = try registry.defineConfiguration("app")
        weak var session: ScopeHandle?
        weak var screen: ScopeHandle?
        do {
            let c = try registry.container("app")
            let s = try c.openScope("session")
            session = s
            screen = try s.openScope("screen")
        }
        #expect(session == nil, "the session outlived its container")
        #expect(screen == nil, "the screen outlived its container")
    }

    @Test func closedChildScopesAreNotKeptByALongLivedParent() throws {
        try registry.declareScope("session")
        try registry.declareScope("screen", in: "session")
        _ = try registry.defineConfiguration("app")
        let c = try registry.container("app")
        let session = try c.openScope("session")
        weak var last: ScopeHandle?
        for _ in 0..<1_000 {
            let screen = try session.openScope("screen")
            last = screen
            try screen.close()
        }
        #expect(last == nil, "a closed screen is still held")
        try session.close()
    }

    @Test func aFactoryResolvingItsOwnKeyThroughACapturedContainerIsACycle() throws {
        let app = try registry.defineConfiguration("app")
        let box = Box()
        try app.register(Cache.self) { _ in
            guard let c = box.container else { return Cache(life, "orphan") }
            return try c.resolve(Cache.self)
        }
        let c = try registry.container("app")
        box.container = c
        let error = registryError { _ = try c.resolve(Cache.self) }
        #expect(error?.kind == .cycle)
        #expect(error?.message == "dependency cycle: Cache → Cache")
        #expect(error?.details.last?.hasPrefix("the second resolve of Cache came from inside the factory for Cache") == true)
        #expect((error?.description.utf8.count ?? .max) < 2_000, "\(error.map { String(describing: $0) } ?? "")")
    }

    @Test func aRecursionWithRuntimeArgumentsThatEndsIsAllowed() throws {
        let app = try registry.defineConfiguration("app")
        let box = Box()
        try app.register(Cache.self, argument: ("depth", Int.self)) { _, depth in
            if depth > 0, let c = box.container { _ = try c.resolve(Cache.self, argument: depth - 1) }
            return Cache(life, "Cache")
        }
        let c = try registry.container("app")
        box.container = c
        _ = try c.resolve(Cache.self, argument: 5)
        #expect(life.built("Cache") == 6)
    }

    /// Bounded by keeping the start and the end: a chain of wrapped
    /// failures ends with its cause, which a cut tail lost.
    @Test func errorMessagesAreBoundedAndKeepTheirCause() {
        let error = RegistryError(.factoryFailed, String(repeating: "the factory for X failed: ", count: 1_000) + "the cause é")
        #expect(error.message.utf8.count < RegistryError.messageLimit + 40)
        #expect(error.message.hasPrefix("the factory for X failed: "))
        #expect(error.message.contains(" bytes left out) …"))
        #expect(error.message.hasSuffix("failed: the cause é"))
        // Wrapped again, still the cause at the end.
        let wrapped = RegistryError(.factoryFailed, "the factory for Y failed: " + error.message)
        #expect(wrapped.message.utf8.count < RegistryError.messageLimit + 40)
        #expect(wrapped.message.hasPrefix("the factory for Y failed: ") && wrapped.message.hasSuffix("the cause é"))
        let short = RegistryError(.factoryFailed, "short")
        #expect(short.message == "short")
    }
}
