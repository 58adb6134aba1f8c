/// What a factory resolves its dependencies through. It resolves only what
/// the registration declares, so the graph the registry shows is the graph
/// that gets built.
///
/// ```swift
/// try app.register(MovieLoader.self, dependencies: [.instance(Cache.self), .provider(Request.self)]) { r in
///     MovieLoader(cache: try r.resolve(), makeRequest: try r.provider(Request.self))
/// }
/// ```
public struct Resolver {
    let context: ResolutionContext
    let current: Int

    /// The container being resolved from.
    public var container: Container { context.container }

    /// An instance of `type` (the one named `name`), which the registration
    /// must declare as an instance dependency.
    @inline(__always)
    public func resolve<T>(_ type: T.Type = T.self, name: String? = nil) throws -> T {
        let index = try dependency(ObjectIdentifier(type), name, T.self, kind: .instance)
        return try context.resolve(index, as: T.self, arguments: .none)
    }

    /// Resolves a declared dependency by key, untyped (for script factories).
    public func resolveAny(_ key: ServiceKey) throws -> Any {
        let index = try dependency(key.type.id, key.name, key.type.name, kind: .instance)
        return try context.resolve(index, as: Any.self, arguments: .none)
    }

    /// A provider of `type`, which the registration must declare as a
    /// provider dependency. It resolves later, each time it is called.
    public func provider<T>(_ type: T.Type = T.self, name: String? = nil) throws -> Provider<T> {
        let index = try dependency(ObjectIdentifier(type), name, T.self, kind: .provider)
        return Provider(container: context.container, scope: context.scope, index: index)
    }

    /// An untyped provider of a declared provider dependency (for script factories).
    public func anyProvider(_ key: ServiceKey) throws -> Provider<Any> {
        let index = try dependency(key.type.id, key.name, key.type.name, kind: .provider)
        return Provider(container: context.container, scope: context.scope, index: index)
    }

    private func dependency<T>(_ id: ObjectIdentifier, _ name: String?, _ type: T, kind: Dependency.Kind) throws -> Int {
        let plan = context.plan
        let holder = plan.registrations[current]
        let label = name.map { "\(type)#\($0)" } ?? "\(type)"
        guard let index = plan.index.find(id, name) else {
            throw context.error(.missingRegistration, "no registration for \(label)", adding: label,
                                details: ["required by \(holder.name) (\(holder.registration.origin))"],
                                origin: holder.registration.origin)
        }
        let declared = kind == .instance ? holder.instanceDependencies : holder.providerDependencies
        guard declared.contains(index) else {
            let what = kind == .instance ? "an instance of" : "a provider of"
            throw context.error(.undeclaredDependency,
                                "the factory for \(holder.name) asked for \(what) \(label), which it does not declare",
                                adding: label,
                                details: ["registered at \(holder.registration.origin); add it to the dependencies"],
                                origin: holder.registration.origin)
        }
        return index
    }
}

/// A factory closure for a registration, handed to a dependent instead of
/// an instance: each call resolves anew (in the scopes open at that time).
///
/// ```swift
/// let makeOnboarding: Provider<OnboardingViewController> = try r.provider()
/// let screen = try makeOnboarding()
/// let signedIn = try makeSignedIn(userSession)     // a provider with a runtime argument
/// ```
public struct Provider<T>: @unchecked Sendable {
    let container: Container
    let scope: ScopeHandle?
    let index: Int

    /// Resolves a new instance (or the scoped one).
    public func callAsFunction() throws -> T {
        try call(arguments: .none)
    }

    /// Resolves with one runtime argument.
    public func callAsFunction<A>(_ a: A) throws -> T {
        try call(arguments: Arguments([a]))
    }

    /// Resolves with two runtime arguments.
    public func callAsFunction<A, B>(_ a: A, _ b: B) throws -> T {
        try call(arguments: Arguments([a, b]))
    }

    /// Resolves with any runtime arguments, checked against the registration.
    public func call(arguments: Arguments) throws -> T {
        try ResolutionContext(container: container, scope: scope).resolve(index, as: T.self, arguments: arguments)
    }

    /// The registration this provider resolves.
    public var registration: Registration { container.plan.registrations[index].registration }
}
