import Testing
@testable import FactoryRegistry
import FactoryhostSupport

/// Closing a scope or a container tells every instance it held, newest
/// first — a ScopeBound one hears it, any other goes to the container's
/// disposer — closes them all even when some fail, then throws the failures.
@Suite("Closing scopes and containers")
struct DisposalTests {
    final class Log: @unchecked Sendable {
        private let lock = Lock()
        private var entries: [String] = []
        func add(_ line: String) { lock.withLock { entries.append(line) } }
        var lines: [String] { lock.withLock { entries } }
    }

    final class Worker: ScopeBound, @unchecked Sendable {
        let name: String, log: Log, fails: Bool
        init(_ name: String, _ log: Log, fails: Bool = false) { self.name = name; self.log = log; self.fails = fails }
        func scopeDidClose() throws {
            log.add("\(name) closed")
            if fails { throw Failure(text: "\(name) could not stop") }
        }
    }
    struct Failure: Error, CustomStringConvertible { let text: String; var description: String { text } }

    /// A plain value type (not ScopeBound) the disposer closes.
    final class Handle: @unchecked Sendable { let name: String; init(_ name: String) { self.name = name } }
    final class Disposer: InstanceDisposer {
        let log: Log
        init(_ log: Log) { self.log = log }
        func dispose(_ instance: Any) throws {
            guard let handle = instance as? Handle else { return }
            log.add("\(handle.name) disposed")
            if handle.name == "broken" { throw Failure(text: "broken handle") }
        }
    }

    private func registry(_ log: Log) throws -> Registry {
        let registry = Registry()
        try registry.declareScope("session")
        let app = try registry.defineConfiguration("app")
        try app.register(Worker.self, name: "first", scope: .singleton) { _ in Worker("first singleton", log) }
        try app.register(Worker.self, name: "second", scope: .singleton) { _ in Worker("second singleton", log) }
        try app.register(Handle.self, scope: .singleton) { _ in Handle("handle") }
        try app.register(Worker.self, name: "session", scope: .custom("session")) { _ in Worker("session worker", log) }
        try app.register(Handle.self, name: "session", scope: .custom("session")) { _ in Handle("session handle") }
        try app.register(Worker.self, name: "failing", scope: .custom("session")) { _ in Worker("failing", log, fails: true) }
        try app.register(Handle.self, name: "broken", scope: .custom("session")) { _ in Handle("broken") }
        try app.register(Worker.self, name: "transient") { _ in Worker("transient", log) }
        return registry
    }

    @Test func aContainerClosesItsScopesThenItsSingletonsNewestFirst() throws {
        let log = Log()
        let disposer = Disposer(log)
        let container = try registry(log).container("app", disposer: disposer)
        _ = try container.resolve(Worker.self, name: "second")      // built first
        _ = try container.resolve(Handle.self)
        _ = try container.resolve(Worker.self, name: "first")
        _ = try container.resolve(Worker.self, name: "transient")   // not the container's: never closed
        let session = try container.openScope("session")
        _ = try session.resolve(Handle.self, name: "session")
        _ = try session.resolve(Worker.self, name: "session")
        try container.close()
        #expect(log.lines == ["session worker closed", "session handle disposed",
                              "first singleton closed", "handle disposed", "second singleton closed"])
        #expect(session.isClosed && container.isClosed)
        // Closed: it builds nothing again — no singleton, no scope, not even a transient.
        #expect(registryError { _ = try container.resolve(Worker.self, name: "first") }?.message
                == "cannot build Worker#first: container 'app' is closed")
        #expect(registryError { _ = try container.openScope("session") }?.message
                == "cannot open scope 'session': container 'app' is closed")
        #expect(registryError { _ = try container.resolve(Worker.self, name: "transient") }?.message
                == "cannot build Worker#transient: container 'app' is closed")
        #expect(registryError { _ = try container.resolveAny(ServiceKey(Worker.self, name: "transient")) }?.kind == .containerClosed)
        try container.close()                                        // twice: nothing more
        #expect(log.lines.count == 5)
    }

    @Test func everyInstanceClosesAndTheFailuresAreThrownTogether() throws {
        let log = Log()
        let disposer = Disposer(log)
        let container = try registry(log).container("app", disposer: disposer)
        let session = try container.openScope("session")
        _ = try session.resolve(Worker.self, name: "failing")
        _ = try session.resolve(Handle.self, name: "broken")
        _ = try session.resolve(Worker.self, name: "session")
        let error = registryError { try session.close() }
        #expect(log.lines == ["session worker closed", "broken disposed", "failing closed"])
        #expect(error?.kind == .disposalFailed)
        #expect(error?.message == "closing scope 'session': 2 instances failed to close (every other one was closed)")
        #expect(error?.details.count == 2)
        #expect(error?.details.first?.hasPrefix("Handle#broken (") == true && error?.details.first?.hasSuffix("): broken handle") == true)
        #expect(error?.details.last?.hasSuffix("): failing could not stop") == true)
        #expect(session.isClosed)
        #expect(registryError { try session.close() } == nil)        // closed once, reported once
    }

    /// Without a disposer, instances that are not ScopeBound are just released.
    @Test func withoutADisposerOnlyScopeBoundInstancesHear() throws {
        let log = Log()
        let container = try registry(log).container("app")
        _ = try container.resolve(Handle.self)
        _ = try container.resolve(Worker.self, name: "first")
        try container.close()
        #expect(log.lines == ["first singleton closed"])
    }

    /// A factory that closes its own container (or scope) while it builds:
    /// what it built is closed at once, the resolve fails, and nothing is
    /// kept for a later resolve to hand out.
    @Test func anInstanceBuiltAsItsHolderClosesIsClosedNotKept() throws {
        final class Captured: @unchecked Sendable { var container: Container?; var scope: ScopeHandle? }
        let log = Log(), captured = Captured()
        let registry = Registry()
        try registry.declareScope("session")
        let app = try registry.defineConfiguration("app")
        try app.register(Worker.self, scope: .singleton) { _ in
            try captured.container?.close()
            return Worker("closing singleton", log)
        }
        try app.register(Worker.self, name: "scoped", scope: .custom("session")) { _ in
            try captured.scope?.close()
            return Worker("closing scoped", log)
        }
        let container = try registry.container("app")
        captured.container = container
        #expect(registryError { _ = try container.resolve(Worker.self) }?.message
                == "cannot keep Worker: container 'app' was closed while it was built")
        #expect(registryError { _ = try container.resolve(Worker.self) }?.message == "cannot build Worker: container 'app' is closed")
        // A closed container is its own kind, not a closed scope: callers match on it, not on its words.
        #expect(registryError { _ = try container.resolve(Worker.self) }?.kind == .containerClosed)
        #expect(registryError { _ = try container.openScope("session") }?.kind == .containerClosed)
        #expect(log.lines == ["closing singleton closed"])

        let other = try registry.container("app")
        let session = try other.openScope("session")
        captured.scope = session
        #expect(registryError { _ = try session.resolve(Worker.self, name: "scoped") }?.kind == .scopeClosed)
        #expect(log.lines == ["closing singleton closed", "closing scoped closed"])
    }
}
