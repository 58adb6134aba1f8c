/// Something to resolve from: a ``Container``, or a ``ScopeHandle`` (which
/// also sees the instances of its scope and the scopes around it).
///
/// ```swift
/// let loader = try container.resolve(MovieLoader.self)
/// let cached = try container.resolve(Store.self, name: "cache")
/// let pizza = try container.resolve(Pizza.self, arguments: 30.0, ["basil"])
/// ```
public protocol Resolving {
    /// Where resolves start.
    var resolutionEntry: ResolutionEntry { get }
}

extension Resolving {
    /// An instance of `type` (the one named `name`).
    ///
    /// - Throws: `RegistryError`, naming the resolution path and the origins: `.missingRegistration`, `.cycle`, `.captiveDependency`, `.scopeNotOpen`, `.argumentMismatch`, `.wrongType`, `.undeclaredDependency`, `.tooDeep`, `.scopeClosed`, `.containerClosed`, or `.factoryFailed` carrying what a factory threw.
    @inlinable
    public func resolve<T>(_ type: T.Type = T.self, name: String? = nil) throws -> T {
        let entry = resolutionEntry
        let container = try entry.liveContainer()
        guard let index = container.plan.index.find(ObjectIdentifier(type), name) else {
            return try resolve(type, name: name, arguments: .none)      // reports the missing registration
        }
        return try ResolutionContext.run(container: container, scope: entry.scope) { try $0.resolveInline(index, as: T.self) }
    }

    /// An instance of `type` built with one runtime argument.
    ///
    /// - Throws: `RegistryError`, naming the resolution path and the origins: `.missingRegistration`, `.cycle`, `.captiveDependency`, `.scopeNotOpen`, `.argumentMismatch`, `.wrongType`, `.undeclaredDependency`, `.tooDeep`, `.scopeClosed`, `.containerClosed`, or `.factoryFailed` carrying what a factory threw.
    public func resolve<T, A>(_ type: T.Type = T.self, name: String? = nil, argument: A) throws -> T {
        try resolve(type, name: name, arguments: Arguments([argument]))
    }

    /// An instance of `type` built with two runtime arguments.
    ///
    /// - Throws: `RegistryError`, naming the resolution path and the origins: `.missingRegistration`, `.cycle`, `.captiveDependency`, `.scopeNotOpen`, `.argumentMismatch`, `.wrongType`, `.undeclaredDependency`, `.tooDeep`, `.scopeClosed`, `.containerClosed`, or `.factoryFailed` carrying what a factory threw.
    public func resolve<T, A, B>(_ type: T.Type = T.self, name: String? = nil, arguments a: A, _ b: B) throws -> T {
        try resolve(type, name: name, arguments: Arguments([a, b]))
    }

    /// An instance of `type` built with three runtime arguments.
    ///
    /// - Throws: `RegistryError`, naming the resolution path and the origins: `.missingRegistration`, `.cycle`, `.captiveDependency`, `.scopeNotOpen`, `.argumentMismatch`, `.wrongType`, `.undeclaredDependency`, `.tooDeep`, `.scopeClosed`, `.containerClosed`, or `.factoryFailed` carrying what a factory threw.
    public func resolve<T, A, B, C>(_ type: T.Type = T.self, name: String? = nil, arguments a: A, _ b: B, _ c: C) throws -> T {
        try resolve(type, name: name, arguments: Arguments([a, b, c]))
    }

    /// An instance of `type` built with `arguments`, checked against the
    /// registration's argument specs (count and types).
    ///
    /// - Throws: `RegistryError`, naming the resolution path and the origins: `.missingRegistration`, `.cycle`, `.captiveDependency`, `.scopeNotOpen`, `.argumentMismatch`, `.wrongType`, `.undeclaredDependency`, `.tooDeep`, `.scopeClosed`, `.containerClosed`, or `.factoryFailed` carrying what a factory threw.
    public func resolve<T>(_ type: T.Type = T.self, name: String? = nil, arguments: Arguments) throws -> T {
        let entry = resolutionEntry
        let container = try entry.liveContainer()
        guard let index = container.plan.index.find(ObjectIdentifier(type), name) else {
            throw missing(ServiceKey(type, name: name).description, container)
        }
        return try ResolutionContext.run(container: container, scope: entry.scope) {
            try $0.resolve(index, as: T.self, arguments: arguments)
        }
    }

    /// Every `.set` contribution of `type` (see ``Contribution``), in
    /// declaration order; empty when there is none.
    ///
    /// ```swift
    /// for handler in try container.resolveList(Handler.self) { handler.start() }
    /// ```
    ///
    /// - Throws: `RegistryError`, naming the resolution path and the origins: `.missingRegistration`, `.cycle`, `.captiveDependency`, `.scopeNotOpen`, `.argumentMismatch`, `.wrongType`, `.undeclaredDependency`, `.tooDeep`, `.scopeClosed`, `.containerClosed`, or `.factoryFailed` carrying what a factory threw.
    public func resolveList<T>(_ type: T.Type = T.self) throws -> [T] {
        guard let values = try resolveAny(ServiceKey(.list(of: ServiceType(T.self)))) as? [Any] else { return [] }
        return values.compactMap { $0 as? T }
    }

    /// Every `.map` contribution of `type`, by key, in declaration order.
    ///
    /// - Throws: `RegistryError`, naming the resolution path and the origins: `.missingRegistration`, `.cycle`, `.captiveDependency`, `.scopeNotOpen`, `.argumentMismatch`, `.wrongType`, `.undeclaredDependency`, `.tooDeep`, `.scopeClosed`, `.containerClosed`, or `.factoryFailed` carrying what a factory threw.
    public func resolveMap<T>(_ type: T.Type = T.self) throws -> [(key: String, value: T)] {
        guard let map = try resolveAny(ServiceKey(.map(of: ServiceType(T.self)))) as? ContributedMap else { return [] }
        return zip(map.keys, map.values).compactMap { key, value in (value as? T).map { (key, $0) } }
    }

    /// An instance for `key`, untyped (the value is checked against the
    /// registered type). For script layers that resolve by name. A
    /// collection nothing contributes to (see ``Contribution``) is empty.
    ///
    /// - Throws: `RegistryError`, naming the resolution path and the origins: `.missingRegistration`, `.cycle`, `.captiveDependency`, `.scopeNotOpen`, `.argumentMismatch`, `.wrongType`, `.undeclaredDependency`, `.tooDeep`, `.scopeClosed`, `.containerClosed`, or `.factoryFailed` carrying what a factory threw.
    public func resolveAny(_ key: ServiceKey, arguments: Arguments = .none) throws -> Any {
        let entry = resolutionEntry
        let container = try entry.liveContainer()
        guard let index = container.plan.index.find(key) else {
            if let isMap = CollectionIdentities.shared.collectionKind(key.type.id), key.name == nil {
                return isMap ? ContributedMap(keys: [], values: []) as Any : [Any]() as Any
            }
            throw missing(key.description, container)
        }
        return try ResolutionContext.run(container: container, scope: entry.scope) {
            try $0.resolve(index, as: Any.self, arguments: arguments)
        }
    }

    /// A provider of `type`: a closure that resolves it when called.
    ///
    /// - Throws: `RegistryError`: `.missingRegistration` when nothing provides it, `.containerClosed` when the container is closed.
    public func provider<T>(_ type: T.Type = T.self, name: String? = nil) throws -> Provider<T> {
        let entry = resolutionEntry
        let container = try entry.liveContainer()
        try container.refuseProviderIfClosed(ServiceKey(type, name: name).description)
        guard let index = container.plan.index.find(ObjectIdentifier(type), name) else {
            throw missing(ServiceKey(type, name: name).description, container)
        }
        return Provider(container: container, scope: entry.scope, index: index)
    }

    /// An untyped provider of `key` (for script layers; values are checked
    /// against the registered type when it is called).
    ///
    /// - Throws: `RegistryError`: `.missingRegistration` when nothing provides it, `.containerClosed` when the container is closed.
    public func anyProvider(_ key: ServiceKey) throws -> Provider<Any> {
        let entry = resolutionEntry
        let container = try entry.liveContainer()
        try container.refuseProviderIfClosed(key.description)
        guard let index = container.plan.index.find(key) else { throw missing(key.description, container) }
        return Provider(container: container, scope: entry.scope, index: index)
    }

    private func missing(_ key: String, _ container: Container) -> RegistryError {
        let near = NameSuggestion.closestKey(to: key, among: container.plan.registrations.map(\.name))
        return RegistryError(.missingRegistration, "no registration for \(key)", configuration: container.configuration,
                             path: [key], details: near.map { ["did you mean \($0)?"] } ?? [])
    }
}
