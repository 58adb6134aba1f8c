import Dispatch
import Testing
@testable import FactoryRegistry

@Suite("Concurrent resolution on one container")
struct ConcurrencyTests {
    @Test func thousandsOfConcurrentResolvesBuildEachSingletonOnce() throws {
        let life = Lifecycle()
        let registry = Registry()
        let app = try registry.defineConfiguration("app")
        try registerGraph9(app, life, storeScope: .singleton)
        try app.register(Logger.self, scope: .singleton, overrides: true) { _ in
            // Widen the window in which two threads could both build it.
            var spin = 0
            for i in 0..<20_000 { spin &+= i }
            return Logger(life, spin == 0 ? "never" : "Logger")
        }
        let container = try registry.container("app")
        let failures = Lifecycle()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<1_000 {
                do {
                    let vm = try container.resolve(ViewModel.self)
                    if vm.a === vm.b { failures.born("shared") }
                } catch {
                    failures.born("error")
                }
            }
        }
        #expect(failures.alive == 0)
        #expect(life.built("Logger") == 1)
        #expect(life.built("Store") == 1)
        #expect(life.built("ViewModel") == 8_000)
        #expect(life.built("MovieLoader") == 16_000)
    }

    @Test func concurrentScopesAndContainers() throws {
        let life = Lifecycle()
        let registry = Registry()
        try registry.declareScope("session")
        let app = try registry.defineConfiguration("app")
        try app.register(UserSession.self, scope: .custom("session")) { _ in UserSession(life, "UserSession") }
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<500 {
                guard let container = try? registry.container("app"), let session = try? container.openScope("session") else {
                    life.born("failure")
                    continue
                }
                let a = try? session.resolve(UserSession.self)
                let b = try? session.resolve(UserSession.self)
                if a == nil || a !== b { life.born("failure") }
                session.close()
            }
        }
        #expect(life.built("failure") == 0)
        #expect(life.built("UserSession") == 2_000)
        #expect(life.alive == 0)
    }
}
