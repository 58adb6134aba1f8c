/// What a factory resolves its dependencies through. It resolves only what
/// the registration declares, so the graph the registry shows is the graph
/// that gets built.
///
/// A resolver is valid only while its factory runs: do not keep it. To
/// build something later, declare a provider dependency and keep the
/// ``Provider`` instead.
///
/// ```swift
/// try app.register(MovieLoader.self, dependencies: [.instance(Cache.self), .provider(Request.self)]) { r in
///     MovieLoader(cache: try r.resolve(), makeRequest: try r.provider(Request.self))
/// }
/// ```
public struct Resolver {
    @usableFromInline let context: ResolutionContext
    @usableFromInline let current: Int

    @usableFromInline
    init(context: ResolutionContext, current: Int) {
        self.context = context
        self.current = current
    }

    /// The container being resolved from.
    ///
    /// - Throws: `RegistryError` (`.resolverExpired`) once the factory has returned, or on another thread.
    public var container: Container {
        get throws {
            try ensureActive()
            return context.container
        }
    }

    /// The registration whose factory is running: its key, where it was
    /// declared, and the configuration that declared it (which may be one
    /// the container's configuration extends).
    ///
    /// ```swift
    /// try app.register(Cache.self) { r in
    ///     print("building \(try r.registration.key), declared in \(try r.registration.configuration)")
    ///     return Cache()
    /// }
    /// ```
    ///
    /// - Throws: `RegistryError` (`.resolverExpired`) once the factory has returned, or on another thread.
    public var registration: Registration {
        get throws {
            try ensureActive()
            return context.plan.registrations[current].registration
        }
    }

    /// Refuses a resolver kept past its factory call or used on another
    /// thread: its resolve state is gone.
    @inlinable @inline(__always)
    func ensureActive() throws {
        if !context.isActive { throw expired() }
    }

    @usableFromInline
    func expired() -> RegistryError {
        RegistryError(.resolverExpired,
                      "a Resolver was used after its factory returned, or on another thread",
                      details: ["keep a Provider (declare .provider(T.self)) to build things later"])
    }

    /// An instance of `type` (the one named `name`), which the registration
    /// must declare as an instance dependency.
    ///
    /// - Throws: `RegistryError`, naming the resolution path and the origins: `.missingRegistration`, `.cycle`, `.captiveDependency`, `.scopeNotOpen`, `.argumentMismatch`, `.wrongType`, `.undeclaredDependency`, `.tooDeep`, `.scopeClosed`, `.containerClosed`, or `.factoryFailed` carrying what a factory threw; `.resolverExpired` once the factory has returned.
    @inlinable
    public func resolve<T>(_ type: T.Type = T.self, name: String? = nil) throws -> T {
        try ensureActive()
        let declared = name == nil ? context.declaredInstance(of: current, typeID: ObjectIdentifier(type)) : nil
        let index = try declared ?? instanceDependency(ObjectIdentifier(type), name, T.self)
        return try context.resolveInline(index, as: T.self)
    }

    @usableFromInline
    func instanceDependency(_ id: ObjectIdentifier, _ name: String?, _ type: Any.Type) throws -> Int {
        try dependency(id, name, { String(describing: type) }, kind: .instance)
    }

    /// Resolves a declared dependency by key, untyped (for script factories).
    ///
    /// - Throws: `RegistryError`, naming the resolution path and the origins: `.missingRegistration`, `.cycle`, `.captiveDependency`, `.scopeNotOpen`, `.argumentMismatch`, `.wrongType`, `.undeclaredDependency`, `.tooDeep`, `.scopeClosed`, `.containerClosed`, or `.factoryFailed` carrying what a factory threw; `.resolverExpired` once the factory has returned.
    public func resolveAny(_ key: ServiceKey) throws -> Any {
        try ensureActive()
        let index = try dependency(key.type.id, key.name, { key.type.name }, kind: .instance)
        return try context.resolve(index, as: Any.self, arguments: .none)
    }

    /// A provider of `type`, which the registration must declare as a
    /// provider dependency. It resolves later, each time it is called.
    ///
    /// - Throws: `RegistryError`: `.undeclaredDependency` when the factory did not declare the provider, `.resolverExpired` once it has returned.
    public func provider<T>(_ type: T.Type = T.self, name: String? = nil) throws -> Provider<T> {
        try ensureActive()
        let index = try dependency(ObjectIdentifier(type), name, { String(describing: T.self) }, kind: .provider)
        return Provider(container: context.container, scope: providerScope, index: index, declared: true)
    }

    /// The scope a provider made here resolves in: the scope its holder
    /// lives in (a scoped holder resolved from the container lives in the
    /// newest open scope of its name, and its provider is bound to that
    /// one), else the scope this resolve started from — unless the holder
    /// outlives scopes (singleton, weak), whose providers use the scopes
    /// open when they are called.
    var providerScope: ScopeHandle? {
        let planned = context.plan.registrations[current]
        switch planned.lifetime {
        case .singleton, .weak: return nil
        case .custom(let name): return (try? context.findScope(name, for: planned)) ?? context.scope
        default: return context.scope
        }
    }

    /// An untyped provider of a declared provider dependency (for script factories).
    ///
    /// - Throws: `RegistryError`: `.undeclaredDependency` when the factory did not declare the provider, `.resolverExpired` once it has returned.
    public func anyProvider(_ key: ServiceKey) throws -> Provider<Any> {
        try ensureActive()
        let index = try dependency(key.type.id, key.name, { key.type.name }, kind: .provider)
        return Provider(container: context.container, scope: providerScope, index: index, declared: true)
    }

    /// The index of a declared dependency. `typeName` is only called to word
    /// an error: naming a type is far too slow for the resolve path.
    private func dependency(_ id: ObjectIdentifier, _ name: String?, _ typeName: () -> String,
                            kind: Dependency.Kind) throws -> Int {
        if let index = context.keys.find(id, name),
           HotTable.declares(context.hotRegistrations, context.hotDependencies, current, index, provider: kind == .provider) {
            return index
        }
        let plan = context.plan
        let holder = plan.registrations[current]
        let label = name.map { "\(typeName())#\($0)" } ?? typeName()
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
public struct Provider<T>: Sendable {
    /// Weak: a singleton that keeps a provider must not keep its container alive.
    weak var container: Container?
    /// Weak too. Once that scope is closed (or gone) the provider refuses,
    /// as the scope does: closed means closed — it built into whichever
    /// scope of the name was open by then. (A provider of a container, or
    /// one a singleton holds, has no scope: it resolves in the scopes open
    /// when it is called.)
    weak var scope: ScopeHandle?
    /// Whether it was made with a scope (which may since be gone).
    let boundToScope: Bool
    let index: Int
    /// Made for a factory that declares it (a `provider` dependency): its
    /// calls are declared, whoever makes them. One taken from a container
    /// is checked like a resolve when called inside a factory.
    let declared: Bool

    init(container: Container, scope: ScopeHandle?, index: Int, declared: Bool = false) {
        self.container = container
        self.scope = scope
        self.boundToScope = scope != nil
        self.index = index
        self.declared = declared
    }

    /// Resolves a new instance (or the scoped one).
    ///
    /// - Throws: `RegistryError`, naming the resolution path and the origins: `.missingRegistration`, `.cycle`, `.captiveDependency`, `.scopeNotOpen`, `.argumentMismatch`, `.wrongType`, `.undeclaredDependency`, `.tooDeep`, `.scopeClosed`, `.containerClosed`, or `.factoryFailed` carrying what a factory threw.
    public func callAsFunction() throws -> T {
        try call(arguments: .none)
    }

    /// Resolves with one runtime argument.
    ///
    /// - Throws: `RegistryError`, naming the resolution path and the origins: `.missingRegistration`, `.cycle`, `.captiveDependency`, `.scopeNotOpen`, `.argumentMismatch`, `.wrongType`, `.undeclaredDependency`, `.tooDeep`, `.scopeClosed`, `.containerClosed`, or `.factoryFailed` carrying what a factory threw.
    public func callAsFunction<A>(_ a: A) throws -> T {
        try call(arguments: Arguments([a]))
    }

    /// Resolves with two runtime arguments.
    ///
    /// - Throws: `RegistryError`, naming the resolution path and the origins: `.missingRegistration`, `.cycle`, `.captiveDependency`, `.scopeNotOpen`, `.argumentMismatch`, `.wrongType`, `.undeclaredDependency`, `.tooDeep`, `.scopeClosed`, `.containerClosed`, or `.factoryFailed` carrying what a factory threw.
    public func callAsFunction<A, B>(_ a: A, _ b: B) throws -> T {
        try call(arguments: Arguments([a, b]))
    }

    /// Resolves with any runtime arguments, checked against the registration.
    ///
    /// - Throws: `RegistryError`, naming the resolution path and the origins: `.missingRegistration`, `.cycle`, `.captiveDependency`, `.scopeNotOpen`, `.argumentMismatch`, `.wrongType`, `.undeclaredDependency`, `.tooDeep`, `.scopeClosed`, `.containerClosed`, or `.factoryFailed` carrying what a factory threw.
    public func call(arguments: Arguments) throws -> T {
        guard let container else {
            throw RegistryError(.containerClosed, "a provider was called after its container was released")
        }
        let live = scope
        if boundToScope {
            guard let live else { throw RegistryError(.scopeClosed, "the scope this provider was taken from is gone",
                                                      configuration: container.configuration) }
            if live.isClosed { throw live.closedError() }
        }
        return try ResolutionContext.run(container: container, scope: live, fromProvider: declared) {
            try $0.resolve(index, as: T.self, arguments: arguments)
        }
    }

    /// The registration this provider resolves (nil once the container is gone).
    public var registration: Registration? { container?.plan.registrations[index].registration }
}
