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
    /// The fields, shared by every copy until one is changed (copy on
    /// write): configurations, plans and script specs all hold the same
    /// registration, so a copy costs one reference, not ~170 bytes.
    // @unchecked Sendable: a Storage is only mutated while uniquely referenced
    // (see `unique`), as Array's buffer is; every field is Sendable.
    private final class Storage: @unchecked Sendable {
        var key: ServiceKey
        var scope: Scope
        var eager: Bool
        var dependencies: [Dependency]
        var arguments: [ArgumentSpec]
        var origin: Origin
        var overrides: Bool
        var factory: AnyFactory
        var configuration: String
        var contribution: Contribution?
        /// Parameters and a refinement, which few registrations have: one
        /// reference for both (a check holds 100,000 registrations).
        var inheritance: Inheritance?

        init(key: ServiceKey, scope: Scope, eager: Bool, dependencies: [Dependency], arguments: [ArgumentSpec],
             origin: Origin, overrides: Bool, factory: AnyFactory, configuration: String, contribution: Contribution? = nil,
             inheritance: Inheritance? = nil) {
            self.contribution = contribution
            self.inheritance = inheritance
            self.key = key
            self.scope = scope
            self.eager = eager
            self.dependencies = dependencies
            self.arguments = arguments
            self.origin = origin
            self.overrides = overrides
            self.factory = factory
            self.configuration = configuration
        }

        func copy() -> Storage {
            Storage(key: key, scope: scope, eager: eager, dependencies: dependencies, arguments: arguments,
                    origin: origin, overrides: overrides, factory: factory, configuration: configuration, contribution: contribution,
                    inheritance: inheritance)
        }
    }

    /// A registration's parameters and refinement (immutable: changing one
    /// makes a new one).
    private final class Inheritance: Sendable {
        let parameters: [RegistrationParameter]
        let refinement: Refinement?
        let values: [ValueDependency]
        init(parameters: [RegistrationParameter], refinement: Refinement?, values: [ValueDependency]) {
            self.parameters = parameters
            self.refinement = refinement
            self.values = values
        }
    }

    private var storage: Storage

    /// The storage, copied first if another registration shares it.
    private mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    /// What it provides: a type and an optional name.
    public var key: ServiceKey {
        get { storage.key }
        set { unique().key = newValue }
    }
    /// How long an instance it builds is shared.
    public var scope: Scope {
        get { storage.scope }
        set { unique().scope = newValue }
    }
    /// For singletons: built when the container starts instead of on first use.
    public var eager: Bool {
        get { storage.eager }
        set { unique().eager = newValue }
    }
    /// What its factory may resolve (and all it may: resolving anything else is an error).
    public var dependencies: [Dependency] {
        get { storage.dependencies }
        set { unique().dependencies = newValue }
    }
    /// The runtime arguments every resolve of it must pass, in order.
    public var arguments: [ArgumentSpec] {
        get { storage.arguments }
        set { unique().arguments = newValue }
    }
    /// Where it was made: a Swift file and line, or a script's.
    public var origin: Origin {
        get { storage.origin }
        set { unique().origin = newValue }
    }
    /// Replaces a registration of the same key (in this configuration or one
    /// it extends) instead of being an error.
    public var overrides: Bool {
        get { storage.overrides }
        set { unique().overrides = newValue }
    }
    /// What builds its instances.
    public var factory: AnyFactory {
        get { storage.factory }
        set { unique().factory = newValue }
    }
    /// What collection of its type it adds to (a multi-binding), if any.
    public var contribution: Contribution? {
        get { storage.contribution }
        set { unique().contribution = newValue }
    }
    /// The parameters a configuration extending this one may change
    /// without restating the rest (see ``refinement``), sorted by name.
    public var parameters: [RegistrationParameter] {
        get { storage.inheritance?.parameters ?? [] }
        set { unique().inheritance = Self.inheritance(newValue, refinement, values) }
    }
    /// The configuration values its factory reads (shown with its dependencies; not resolved).
    public var values: [ValueDependency] {
        get { storage.inheritance?.values ?? [] }
        set { unique().inheritance = Self.inheritance(parameters, refinement, newValue) }
    }
    /// Set on an override that changes only parameters of the registration
    /// it overrides (Typhoon's definition inheritance): everything else is
    /// inherited. See ``Refinement``.
    public var refinement: Refinement? {
        get { storage.inheritance?.refinement }
        set { unique().inheritance = Self.inheritance(parameters, newValue, values) }
    }

    private static func inheritance(_ parameters: [RegistrationParameter], _ refinement: Refinement?,
                                    _ values: [ValueDependency]) -> Inheritance? {
        parameters.isEmpty && refinement == nil && values.isEmpty
            ? nil : Inheritance(parameters: parameters, refinement: refinement, values: values)
    }
    /// The configuration the registration was made in (set when added).
    public internal(set) var configuration: String {
        get { storage.configuration }
        set { unique().configuration = newValue }
    }

    /// A registration of `key`, built by `factory`. ``Configuration``'s `register` methods make these for you;
    /// make one yourself for ``Configuration/add(_:)``.
    public init(key: ServiceKey, scope: Scope = .transient, eager: Bool = false, dependencies: [Dependency] = [],
                arguments: [ArgumentSpec] = [], origin: Origin, overrides: Bool = false, factory: AnyFactory) {
        storage = Storage(key: key, scope: scope, eager: eager, dependencies: dependencies, arguments: arguments,
                          origin: origin, overrides: overrides, factory: factory, configuration: "")
    }

    /// `Key (scope, origin)`.
    public var description: String { "\(key) (\(scope), \(origin))" }
}
