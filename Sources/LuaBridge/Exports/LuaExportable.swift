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
public protocol LuaExportable: AnyObject, LuaArgument, LuaResult {
    /// The name scripts and messages use (`Cache expected, got string`).
    static var luaTypeName: String { get }
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
        fh_push_object(L, Unmanaged.passRetained(object).toOpaque(), type)
    }
}
