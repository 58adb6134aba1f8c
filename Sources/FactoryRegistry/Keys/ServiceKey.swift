/// What a registration is found by: the type it provides and an optional
/// name, for two registrations of one type.
///
/// ```swift
/// ServiceKey(Store.self)                  // "Store"
/// ServiceKey(Store.self, name: "cache")   // "Store#cache"
/// ```
public struct ServiceKey: Hashable, Sendable, CustomStringConvertible {
    /// The type provided.
    public let type: ServiceType
    /// The name telling two registrations of one type apart, if any.
    public let name: String?

    /// The key of `type`, named `name`.
    public init(_ type: ServiceType, name: String? = nil) {
        self.type = type
        self.name = name
    }

    /// The key of Swift type `type`, named `name`.
    public init<T>(_ type: T.Type, name: String? = nil) {
        self.init(ServiceType(type), name: name)
    }

    /// `Type` or `Type#name`.
    public var description: String { name.map { "\(type.name)#\($0)" } ?? type.name }
}
