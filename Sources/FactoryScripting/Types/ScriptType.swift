import FactoryRegistry
import LuaBridge

/// A type scripts can name in registrations, dependencies and arguments:
/// a primitive (`integer`, `string`, …), an exported Swift class, or an
/// interface (a Swift protocol Lua tables may implement).
///
/// ```swift
/// let loader = try host.types.type(named: "MovieLoader")
/// loader.serviceType.accepts(MovieLoader())   // true
/// ```
public struct ScriptType {
    /// What kind of type it is.
    public enum Kind: String, Sendable {
        /// A Lua value type (`string`, `integer`, `number`, `boolean`, `table`, `function`, `any`).
        case primitive
        /// A Swift class a plugin exports.
        case `class`
        /// A Swift protocol a plugin exports, implemented by Lua tables.
        case interface
    }

    /// The name scripts use.
    public let name: String
    /// A primitive (`string`, `integer`, …), an exported class, or an interface.
    public let kind: Kind
    /// The Swift type behind it, as the registry knows it.
    public let serviceType: ServiceType
    /// Reads a Lua value as this type; throws a `.typeMismatch` LuaError
    /// (`MovieLoader expected, got string`).
    let fromLua: (LuaValue, LuaState) throws -> Any
    /// The same for a value on a stack (no reference made when it is an object).
    let fromFrame: (LuaFrame, Int32) throws -> Any

    init(name: String, kind: Kind, serviceType: ServiceType,
         fromLua: @escaping (LuaValue, LuaState) throws -> Any,
         fromFrame: ((LuaFrame, Int32) throws -> Any)? = nil, elementName: String? = nil) {
        self.elementName = elementName
        self.name = name
        self.kind = kind
        self.serviceType = serviceType
        self.fromLua = fromLua
        self.fromFrame = fromFrame ?? { frame, index in try fromLua(frame.value(index), frame.state) }
    }

    /// The element type's name, for `[Type]` and `{Type}` (collections of
    /// contributions, see `Contribution`); nil for any other type.
    public let elementName: String?
    /// Whether this is a list or map of contributions.
    public var isCollection: Bool { elementName != nil }

    /// The value as this type, converted from Lua.
    ///
    /// - Throws: a `LuaError` (`.typeMismatch`) when the value is not of this type.
    public func value(from lua: LuaValue, in state: LuaState) throws -> Any {
        try fromLua(lua, state)
    }
}
