import CLuaShim

/// A Swift class that Lua holds as an exported object of type
/// ``luaTypeName``: it can be an argument and a result of exported
/// functions, checked by type.
///
/// ```swift
/// final class Cache: LuaExportable {
///     static let luaTypeName = "Cache"
/// }
/// ```
public protocol LuaExportable: AnyObject, LuaArgument, LuaResult, LuaConvertible {
    /// The name scripts and messages use (`Cache expected, got string`).
    static var luaTypeName: String { get }
}

extension LuaExportable {
    /// The object inside a userdata of this type (or of a subclass's exported type).
    public static func fromLua(_ value: LuaValue) throws -> Self {
        guard case .userdata(let userdata) = value, let object = userdata.object(as: Self.self) else {
            throw LuaError.typeMismatch(expected: luaTypeName, got: value.typeName)
        }
        return object
    }

    /// A userdata holding the object, with its exported type's metatable.
    public func toLua(in state: LuaState) throws -> LuaValue {
        .userdata(try state.pushObject(self, type: Self.luaTypeName))
    }
}

extension LuaExportable {
    public static var luaArgumentName: String { luaTypeName }

    public static func read(from frame: LuaFrame, at position: Int32) throws -> Self {
        try frame.object(position, as: Self.self, typeName: luaTypeName)
    }

    public func push(to frame: LuaFrame) throws {
        frame.pushObject(self, type: Self.luaTypeName)
    }
}

extension LuaFrame {
    /// Pushes `object` as a userdata of exported type `type`.
    public func pushObject(_ object: AnyObject, type: String) {
        fh_push_object(L, Unmanaged.passRetained(object).toOpaque(), swiftTypeIdentity(Swift.type(of: object)), type)
    }
}
