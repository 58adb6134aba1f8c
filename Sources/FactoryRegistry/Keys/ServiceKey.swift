/// What a registration is found by: the type it provides and an optional
/// name, for two registrations of one type.
///
/// ```swift
/// ServiceKey(Store.self)                  // "Store"
/// ServiceKey(Store.self, name: "cache")   // "Store#cache"
/// ```
public struct ServiceKey: Hashable, Sendable, CustomStringConvertible {
    public let type: ServiceType
    public let name: String?

    public init(_ type: ServiceType, name: String? = nil) {
        self.type = type
        self.name = name
    }

    public init<T>(_ type: T.Type, name: String? = nil) {
        self.init(ServiceType(type), name: name)
    }

    /// `Type` or `Type#name`.
    public var description: String { name.map { "\(type.name)#\($0)" } ?? type.name }
}
