/// The type a registration provides: a Swift type, with the name it shows in
/// messages and graphs (and, for exported types, the name scripts use).
///
/// ```swift
/// let t = ServiceType(MovieLoader.self)            // name "MovieLoader"
/// let lua = ServiceType(MovieLoader.self, name: "net.MovieLoader")
/// t.accepts(MovieLoader())                         // true
/// ```
public struct ServiceType: Hashable, Sendable, CustomStringConvertible {
    /// The Swift type's identity.
    public let id: ObjectIdentifier
    /// The name in messages and graphs.
    public let name: String
    /// Whether a value is an instance of the type (used for factories that
    /// are not typed at compile time, such as script functions).
    public let accepts: @Sendable (Any) -> Bool

    /// The type `type`, named `name` (default: the Swift type's name).
    public init<T>(_ type: T.Type, name: String? = nil) {
        id = ObjectIdentifier(type)
        self.name = name ?? String(describing: type)
        accepts = { $0 is T }
    }

    /// A type with no Swift type of its own — an interface a script
    /// declares — whose values are `Value`s: told apart from every other
    /// type by `identity`, an object the caller keeps alive while the type
    /// is in use.
    ///
    /// ```swift
    /// let token = ScriptTypeToken()        // kept by whoever declares the type
    /// let logger = ServiceType(LuaTable.self, name: "Logger", identity: token)
    /// ```
    public init<Value>(_ valueType: Value.Type, name: String, identity: AnyObject) {
        id = ObjectIdentifier(identity)
        self.name = name
        accepts = { $0 is Value }
    }

    /// The type's name as messages show it.
    public var description: String { name }

    /// Whether `a` and `b` are the same type (by identity, not by name).
    public static func == (a: ServiceType, b: ServiceType) -> Bool { a.id == b.id }
    /// Hashes the type's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
