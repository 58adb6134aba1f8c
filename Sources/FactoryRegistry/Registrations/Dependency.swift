/// A dependency a registration declares: an instance, or a provider (a
/// factory closure the dependent calls later). Declarations are what
/// validation, graphs and the undeclared-dependency check work from.
///
/// ```swift
/// try app.register(MainViewController.self,
///                  dependencies: [.instance(MainViewModel.self), .provider(OnboardingViewController.self)]) { r in
///     MainViewController(model: try r.resolve(), makeOnboarding: try r.provider(OnboardingViewController.self))
/// }
/// ```
public struct Dependency: Hashable, Sendable, CustomStringConvertible {
    /// Whether the dependent gets an instance or a closure that makes one.
    public enum Kind: String, Hashable, Sendable {
        /// `instance`: the dependent resolves the value; `provider`: it gets a ``Provider`` to call later.
        case instance, provider
    }

    /// What the dependency is on.
    public let key: ServiceKey
    /// An instance or a provider.
    public let kind: Kind
    /// The label a script gave the dependency (`cache` in `deps = { cache = "Cache" }`).
    public let label: String?
    /// What a provider will be called with, when it says (one field for
    /// both forms: a check of 100,000 registrations holds every dependency).
    private enum Expected: Hashable, Sendable {
        case types([ServiceType])
        case named([ArgumentSpec])
    }
    private let expected: Expected?

    /// For providers of registrations with runtime arguments: the argument
    /// types the provider will be called with.
    public var argumentTypes: [ServiceType]? {
        if case .types(let types)? = expected { return types }
        return nil
    }
    /// For providers called with named runtime arguments (an assisted
    /// factory's method): the names and types it will pass, which must be
    /// exactly the ones the registration takes, in any order.
    public var arguments: [ArgumentSpec]? {
        if case .named(let specs)? = expected { return specs }
        return nil
    }

    /// A dependency on `key`; a provider may say the argument types it will
    /// pass, or their names and types (not both).
    public init(_ key: ServiceKey, kind: Kind = .instance, label: String? = nil, argumentTypes: [ServiceType]? = nil,
                arguments: [ArgumentSpec]? = nil) {
        self.key = key
        self.kind = kind
        self.label = label
        expected = arguments.map(Expected.named) ?? argumentTypes.map(Expected.types)
    }

    /// An instance of `type` (optionally the one named `name`).
    public static func instance<T>(_ type: T.Type, name: String? = nil, label: String? = nil) -> Dependency {
        Dependency(ServiceKey(type, name: name), kind: .instance, label: label)
    }

    /// A provider of `type`: the dependent gets a closure, not an instance.
    public static func provider<T>(_ type: T.Type, name: String? = nil, label: String? = nil) -> Dependency {
        Dependency(ServiceKey(type, name: name), kind: .provider, label: label)
    }

    /// `Cache`, `provider of Cache`, or with its label `cache: Cache`.
    public var description: String {
        let base = kind == .provider ? "provider of \(key)" : key.description
        return label.map { "\($0): \(base)" } ?? base
    }
}

/// A typed runtime argument a registration takes (assisted injection).
///
/// ```swift
/// ArgumentSpec("user", User.self)
/// ```
public struct ArgumentSpec: Hashable, Sendable, CustomStringConvertible {
    /// The argument's name (`user`).
    public let name: String
    /// The type its values must have.
    public let type: ServiceType
    /// Whether a value of any type will do (a script layer's `any`): a
    /// provider that says it passes another type here is no mismatch.
    public let acceptsEveryType: Bool

    /// An argument `name` of Swift type `type`.
    public init<T>(_ name: String, _ type: T.Type) {
        self.init(name, ServiceType(type))
    }

    /// An argument `name` of `type`; with `acceptsEveryType`, any value will do.
    public init(_ name: String, _ type: ServiceType, acceptsEveryType: Bool = false) {
        self.name = name
        self.type = type
        self.acceptsEveryType = acceptsEveryType
    }

    /// `user: User`.
    public var description: String { "\(name): \(type.name)" }
}
