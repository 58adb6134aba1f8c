// The Swift-facing ways to register a factory. Each records the caller's
// file and line as the registration's origin.
extension Configuration {
    /// Registers a factory for `type`.
    ///
    /// ```swift
    /// try app.register(MovieLoader.self, dependencies: [.instance(Cache.self), .instance(HTTPSession.self)]) { r in
    ///     MovieLoader(cache: try r.resolve(), session: try r.resolve())
    /// }
    /// ```
    /// Inside the factory, resolve only what `dependencies` declares: anything
    /// else is an `undeclaredDependency` error, so graphs and validation see
    /// every edge.
    ///
    /// - Throws: `RegistryError`, as ``add(_:)`` does: `.duplicateRegistration` for a key registered here already without `overrides`; `.invalidRegistration` for a registration that cannot be made (runtime arguments on a non-transient, say).
    public func register<T>(
        _ type: T.Type, name: String? = nil, scope: Scope = .transient, eager: Bool = false,
        dependencies: [Dependency] = [], overrides: Bool = false,
        file: String = #fileID, line: Int = #line,
        factory: @escaping @Sendable (Resolver) throws -> T
    ) throws {
        try add(Registration(
            key: ServiceKey(type, name: name), scope: scope, eager: eager, dependencies: dependencies,
            origin: Origin(file: file, line: line), overrides: overrides,
            factory: TypedFactory(factory)))
    }

    /// Registers `type` as given when a scope named `scope` opens
    /// (``Container/openScope(_:with:)``): in such a scope, resolving it gives
    /// the value the scope was opened with; in one opened without it,
    /// resolving it fails, saying so.
    ///
    /// ```swift
    /// try app.registerGiven(Request.self, inScope: "request")
    /// let scope = try container.openScope("request", with: [ScopedValue(request)])
    /// ```
    ///
    /// - Throws: `RegistryError`, as ``add(_:)`` does.
    public func registerGiven<T>(_ type: T.Type, name: String? = nil, inScope scope: String,
                                 file: String = #fileID, line: Int = #line) throws {
        let key = ServiceKey(type, name: name)
        try register(type, name: name, scope: .custom(scope), file: file, line: line) { _ -> T in
            throw RegistryError(.factoryFailed, "\(key) is given when a '\(scope)' scope opens, and this one was opened without it",
                                details: ["open it with the value: openScope(\"\(scope)\", with: [ScopedValue(…)])"])
        }
    }

    /// Registers a factory for `type` that adds to a collection of `type`
    /// (see ``Contribution``): `.set` joins the list, `.map(key:)` the map.
    /// A contribution is a registration of its own, keyed `type#name`
    /// (a map's key when no name is given; the file and line for a set's).
    ///
    /// ```swift
    /// try app.register(Handler.self, name: "json", into: .set) { _ in JSONHandler() }
    /// try app.register(Handler.self, into: .map(key: "xml")) { _ in XMLHandler() }
    /// ```
    ///
    /// - Throws: `RegistryError`, as ``add(_:)`` does: `.duplicateRegistration` for a key registered here already without `overrides`; `.invalidRegistration` for a registration that cannot be made (runtime arguments on a non-transient, say).
    public func register<T>(
        _ type: T.Type, name: String? = nil, into contribution: Contribution, scope: Scope = .transient,
        dependencies: [Dependency] = [], overrides: Bool = false,
        file: String = #fileID, line: Int = #line,
        factory: @escaping @Sendable (Resolver) throws -> T
    ) throws {
        var elementName = name ?? "\(file):\(line)"
        if name == nil, case .map(let key) = contribution { elementName = key }
        var registration = Registration(
            key: ServiceKey(type, name: elementName), scope: scope, dependencies: dependencies,
            origin: Origin(file: file, line: line), overrides: overrides, factory: TypedFactory(factory))
        registration.contribution = contribution
        try add(registration)
    }

    /// Registers a factory for `type` that takes one typed runtime argument.
    ///
    /// ```swift
    /// try app.register(ChildViewController.self, argument: ("user", User.self),
    ///                  dependencies: [.instance(UsersService.self)]) { r, user in
    ///     ChildViewController(users: try r.resolve(), user: user)
    /// }
    /// let child = try container.resolve(ChildViewController.self, argument: someUser)
    /// ```
    ///
    /// - Throws: `RegistryError`, as ``add(_:)`` does: `.duplicateRegistration` for a key registered here already without `overrides`; `.invalidRegistration` for a registration that cannot be made (runtime arguments on a non-transient, say).
    public func register<T, A>(
        _ type: T.Type, name: String? = nil, argument: (String, A.Type),
        dependencies: [Dependency] = [], overrides: Bool = false,
        file: String = #fileID, line: Int = #line,
        factory: @escaping @Sendable (Resolver, A) throws -> T
    ) throws {
        try add(Registration(
            key: ServiceKey(type, name: name), dependencies: dependencies,
            arguments: [ArgumentSpec(argument.0, A.self)],
            origin: Origin(file: file, line: line), overrides: overrides,
            factory: TypedFactory { r, args in try factory(r, args.value(0)) }))
    }

    /// Registers a factory for `type` that takes two typed runtime arguments.
    ///
    /// - Throws: `RegistryError`, as ``add(_:)`` does: `.duplicateRegistration` for a key registered here already without `overrides`; `.invalidRegistration` for a registration that cannot be made (runtime arguments on a non-transient, say).
    public func register<T, A, B>(
        _ type: T.Type, name: String? = nil, arguments a: (String, A.Type), _ b: (String, B.Type),
        dependencies: [Dependency] = [], overrides: Bool = false,
        file: String = #fileID, line: Int = #line,
        factory: @escaping @Sendable (Resolver, A, B) throws -> T
    ) throws {
        try add(Registration(
            key: ServiceKey(type, name: name), dependencies: dependencies,
            arguments: [ArgumentSpec(a.0, A.self), ArgumentSpec(b.0, B.self)],
            origin: Origin(file: file, line: line), overrides: overrides,
            factory: TypedFactory { r, args in try factory(r, args.value(0), args.value(1)) }))
    }

    /// Registers a factory for `type` that takes three typed runtime arguments.
    ///
    /// - Throws: `RegistryError`, as ``add(_:)`` does: `.duplicateRegistration` for a key registered here already without `overrides`; `.invalidRegistration` for a registration that cannot be made (runtime arguments on a non-transient, say).
    public func register<T, A, B, C>(
        _ type: T.Type, name: String? = nil, arguments a: (String, A.Type), _ b: (String, B.Type), _ c: (String, C.Type),
        dependencies: [Dependency] = [], overrides: Bool = false,
        file: String = #fileID, line: Int = #line,
        factory: @escaping @Sendable (Resolver, A, B, C) throws -> T
    ) throws {
        try add(Registration(
            key: ServiceKey(type, name: name), dependencies: dependencies,
            arguments: [ArgumentSpec(a.0, A.self), ArgumentSpec(b.0, B.self), ArgumentSpec(c.0, C.self)],
            origin: Origin(file: file, line: line), overrides: overrides,
            factory: TypedFactory { r, args in try factory(r, args.value(0), args.value(1), args.value(2)) }))
    }
}
