import Testing
@testable import FactoryRegistry

/// A factory that resolves through a container it captured — the same
/// container it is built in — may resolve only what it declares, or the
/// graph that check and graph show is not the one that is built.
@Suite("Resolves through a captured container are checked against the declared dependencies")
struct UndeclaredDependencyTests {
    let life = Lifecycle()

    final class Captured: @unchecked Sendable { var container: Container? }
    final class Holder: @unchecked Sendable {
        let logger: Logger?
        init(_ logger: Logger?) { self.logger = logger }
    }

    private func container(declaring dependencies: [Dependency], singletonBuiltFirst: Bool = false) throws -> (Container, Captured) {
        let captured = Captured()
        let registry = Registry()
        let app = try registry.defineConfiguration("app")
        try app.register(Logger.self, scope: .singleton) { _ in Logger(life, "Logger") }
        try app.register(Holder.self, dependencies: dependencies) { _ in Holder(try captured.container?.resolve(Logger.self)) }
        let container = try registry.container("app")
        captured.container = container
        if singletonBuiltFirst { _ = try container.resolve(Logger.self) }
        return (container, captured)
    }

    @Test(arguments: [false, true])
    func anUndeclaredResolveIsAnError(singletonBuiltFirst: Bool) throws {
        let (container, _) = try container(declaring: [], singletonBuiltFirst: singletonBuiltFirst)
        let error = registryError { _ = try container.resolve(Holder.self) }
        #expect(error?.kind == .undeclaredDependency, "\(String(describing: error))")
        #expect(error?.message == "the factory for Holder resolved Logger through a container, but does not declare it")
        #expect(error?.path == ["Holder", "Logger"])
    }

    /// The same for a transient with a typed factory (the registry's fast
    /// path), and however the factory handles the error. Before: the
    /// transient was built, and the holder too.
    @Test(arguments: [false, true])
    func anUndeclaredTransientIsAnErrorToo(swallowed: Bool) throws {
        let captured = Captured()
        let registry = Registry()
        let app = try registry.defineConfiguration("app")
        try app.register(Logger.self) { _ in Logger(life, "Logger") }                    // transient, typed, no arguments
        try app.register(Holder.self) { _ in
            let container = try #require(captured.container)
            return Holder(swallowed ? try? container.resolve(Logger.self) : try container.resolve(Logger.self))
        }
        let container = try registry.container("app")
        captured.container = container
        let error = registryError { _ = try container.resolve(Holder.self) }
        #expect(error?.kind == .undeclaredDependency, "\(String(describing: error))")
        #expect(error?.message == "the factory for Holder resolved Logger through a container, but does not declare it")
        #expect(error?.path == ["Holder", "Logger"])
        // Declared, it is built.
        let declared = try registry.defineConfiguration("declared", extends: "app")
        try declared.register(Holder.self, dependencies: [.instance(Logger.self)], overrides: true) { _ in
            Holder(try captured.container?.resolve(Logger.self))
        }
        let other = try registry.container("declared")
        captured.container = other
        #expect(try other.resolve(Holder.self).logger != nil)
    }

    @Test func aDeclaredOneIsFine() throws {
        for declared in [Dependency.instance(Logger.self), .provider(Logger.self)] {
            let (container, _) = try container(declaring: [declared])
            #expect(try container.resolve(Holder.self).logger != nil)
        }
    }

    /// Calling a provider resolves what someone declared — here the
    /// dependency that holds it, called from a factory that does not; and
    /// another container is not this graph.
    @Test func providersAndOtherContainersAreNotChecked() throws {
        final class LoggerFactory: @unchecked Sendable {
            let make: Provider<Logger>
            init(_ make: Provider<Logger>) { self.make = make }
        }
        let registry = Registry()
        let app = try registry.defineConfiguration("app")
        try app.register(Logger.self) { _ in Logger(life, "Logger") }
        try app.register(LoggerFactory.self, dependencies: [.provider(Logger.self)]) { r in LoggerFactory(try r.provider()) }
        try app.register(Holder.self, dependencies: [.instance(LoggerFactory.self)]) { r in
            let factory: LoggerFactory = try r.resolve()
            return Holder(try factory.make())
        }
        try app.register(Holder.self, name: "own") { _ in
            Holder(try registry.container("app").resolve(Logger.self))       // a container of its own
        }
        let container = try registry.container("app")
        #expect(try container.resolve(Holder.self).logger != nil)
        #expect(try container.resolve(Holder.self, name: "own").logger != nil)
    }
}
