import Testing
import FactoryRegistry

// The registry example of docs/Embedding.md (once the README's), verbatim
// inside `readmeExample()`, with the types it assumes.
final class Logger: Sendable {}
protocol Store: AnyObject, Sendable { var kind: String { get } }
final class SQLiteStore: Store {
    let kind = "sqlite"
    init(path: String, logger: Logger) {}
}
final class InMemoryStore: Store {
    let kind = "memory"
    init(logger: Logger) {}
}
final class MovieLoader: Sendable {
    let store: Store
    init(store: Store) { self.store = store }
}
final class User: Sendable {
    let name: String
    init(name: String) { self.name = name }
}
final class ChildViewController: Sendable {
    let user: User
    init(user: User) { self.user = user }
}

@Suite("The README's registry example runs")
struct ReadmeExampleTests {
    @Test func readmeExample() throws {
        let registry = Registry()
        try registry.declareScope("session")
        try registry.declareScope("screen", in: "session")      // screens nest in sessions

        let app = try registry.defineConfiguration("app")
        try app.register(Logger.self, scope: .singleton) { _ in Logger() }
        try app.register(Store.self, scope: .singleton, dependencies: [.instance(Logger.self)]) { r in
            SQLiteStore(path: "app.sqlite", logger: try r.resolve())
        }
        try app.register(MovieLoader.self, scope: .custom("screen"), dependencies: [.instance(Store.self)]) { r in
            MovieLoader(store: try r.resolve())
        }
        try app.register(ChildViewController.self, argument: ("user", User.self)) { _, user in
            ChildViewController(user: user)
        }

        let tests = try registry.defineConfiguration("app-tests", extends: "app")
        try tests.register(Store.self, scope: .singleton, dependencies: [.instance(Logger.self)], overrides: true) { r in
            InMemoryStore(logger: try r.resolve())
        }

        precondition(registry.validate().isEmpty)                // checked from declarations: nothing is built

        let container = try registry.container("app-tests")      // every test: a fresh container
        let session = try container.openScope("session")
        let screen = try session.openScope("screen")
        let loader = try screen.resolve(MovieLoader.self)
        let child = try container.resolve(ChildViewController.self, argument: User(name: "ana"))
        try screen.close()                                       // the screen's loader is released here

        #expect(loader.store.kind == "memory")
        #expect(child.user.name == "ana")
        #expect(screen.isClosed && !session.isClosed)
        #expect(try registry.container("app").resolve(Store.self).kind == "sqlite")
    }
}
