/// The runtime arguments of one resolve (assisted injection), checked against
/// the registration's ``ArgumentSpec``s before its factory runs.
///
/// ```swift
/// try app.register(ChildViewController.self, arguments: [ArgumentSpec("user", User.self)]) { r, args in
///     ChildViewController(user: try args.value(0, as: User.self))
/// }
/// ```
public struct Arguments {
    /// The values, in the order of the registration's specs.
    public let values: [Any]

    /// The arguments `values`, in the order of the registration's specs.
    @inlinable
    public init(_ values: [Any]) { self.values = values }

    /// No arguments (computed: a stored static would cost a lazy-init check
    /// on every resolve).
    @inlinable
    public static var none: Arguments { Arguments([]) }

    /// How many there are.
    public var count: Int { values.count }

    /// Argument `index` as `T`.
    ///
    /// - Throws: `RegistryError` (`.argumentMismatch`) when there is no argument at `index` or it is not a `T`.
    public func value<T>(_ index: Int, as type: T.Type = T.self) throws -> T {
        guard index >= 0, index < values.count else {
            throw RegistryError(.argumentMismatch, "no argument at position \(index + 1) (\(values.count) given)")
        }
        guard let value = values[index] as? T else {
            throw RegistryError(.argumentMismatch,
                                "argument \(index + 1): expected \(String(describing: T.self)), got \(typeName(of: values[index]))")
        }
        return value
    }
}

/// The dynamic type name of a value, for messages.
func typeName(of value: Any) -> String {
    String(describing: Swift.type(of: value))
}
