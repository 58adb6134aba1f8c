/// One registration: what it provides, how long instances live, what it
/// depends on, which runtime arguments it takes, where it was made, and the
/// factory that builds it.
///
/// ```swift
/// let r = Registration(key: ServiceKey(Cache.self), scope: .singleton,
///                      origin: .here(), factory: TypedFactory { _, _ in Cache() })
/// try app.add(r)
/// ```
public struct Registration: Sendable, CustomStringConvertible {
    public var key: ServiceKey
    public var scope: Scope
    /// For singletons: built when the container starts instead of on first use.
    public var eager: Bool
    public var dependencies: [Dependency]
    public var arguments: [ArgumentSpec]
    public var origin: Origin
    /// Replaces a registration of the same key (in this configuration or one
    /// it extends) instead of being an error.
    public var overrides: Bool
    public var factory: AnyFactory
    /// The configuration the registration was made in (set when added).
    public internal(set) var configuration: String = ""

    public init(key: ServiceKey, scope: Scope = .transient, eager: Bool = false, dependencies: [Dependency] = [],
                arguments: [ArgumentSpec] = [], origin: Origin, overrides: Bool = false, factory: AnyFactory) {
        self.key = key
        self.scope = scope
        self.eager = eager
        self.dependencies = dependencies
        self.arguments = arguments
        self.origin = origin
        self.overrides = overrides
        self.factory = factory
    }

    /// `Key (scope, origin)`.
    public var description: String { "\(key) (\(scope), \(origin))" }
}
