import CLua
import CLuaShim

/// A Swift type an exported function can take as an argument: read from the
/// caller's stack frame, with a lua-style error when the value is wrong.
///
/// ```swift
/// extension Movie: LuaExportable { static let luaTypeName = "Movie" }
/// // Movie now works as an argument and a result of exported functions.
/// ```
public protocol LuaArgument {
    /// The name used in "X expected" messages.
    static var luaArgumentName: String { get }
    /// Reads the argument at `position`.
    static func read(from frame: LuaFrame, at position: Int32) throws -> Self
}

/// A Swift type an exported function can return.
public protocol LuaResult {
    /// Pushes the value as one result.
    func push(to frame: LuaFrame) throws
}

extension Int: LuaArgument, LuaResult {
    public static var luaArgumentName: String { "integer" }
    @inlinable public static func read(from frame: LuaFrame, at position: Int32) throws -> Int { try frame.integer(position) }
    @inlinable public func push(to frame: LuaFrame) { frame.push(self) }
}

extension Double: LuaArgument, LuaResult {
    public static var luaArgumentName: String { "number" }
    @inlinable public static func read(from frame: LuaFrame, at position: Int32) throws -> Double { try frame.number(position) }
    @inlinable public func push(to frame: LuaFrame) { frame.push(self) }
}

extension Bool: LuaArgument, LuaResult {
    public static var luaArgumentName: String { "boolean" }
    @inlinable public static func read(from frame: LuaFrame, at position: Int32) throws -> Bool { try frame.boolean(position) }
    @inlinable public func push(to frame: LuaFrame) { frame.push(self) }
}

extension String: LuaArgument, LuaResult {
    public static var luaArgumentName: String { "string" }
    public static func read(from frame: LuaFrame, at position: Int32) throws -> String { try frame.string(position) }
    public func push(to frame: LuaFrame) { frame.push(self) }
}

extension LuaValue: LuaArgument, LuaResult {
    public static var luaArgumentName: String { "value" }
    public static func read(from frame: LuaFrame, at position: Int32) throws -> LuaValue { frame.value(position) }
    public func push(to frame: LuaFrame) throws { try frame.push(self) }
}

extension Optional: LuaArgument where Wrapped: LuaArgument {
    public static var luaArgumentName: String { Wrapped.luaArgumentName + " or nil" }
    /// `nil` or no value reads as `.none`; anything else must be a `Wrapped`.
    public static func read(from frame: LuaFrame, at position: Int32) throws -> Wrapped? {
        if frame.isNoneOrNil(position) { return nil }
        do {
            return try Wrapped.read(from: frame, at: position)
        } catch let error as LuaError where error.kind == .typeMismatch && error.message.hasSuffix("expected, got \(frame.typeName(position)))") {
            throw frame.typeError(position, expected: luaArgumentName)
        }
    }
}

extension Optional: LuaResult where Wrapped: LuaResult {
    public func push(to frame: LuaFrame) throws {
        if let value = self { try value.push(to: frame) } else { frame.pushNil() }
    }
}

extension Array: LuaArgument where Element: LuaConvertible {
    public static var luaArgumentName: String { "array of \(Element.luaTypeName)" }
    /// A sequence table; a wrong element names its index.
    public static func read(from frame: LuaFrame, at position: Int32) throws -> [Element] {
        let value = frame.value(position)
        guard case .table = value else { throw frame.typeError(position, expected: luaArgumentName) }
        do {
            return try [Element].fromLua(value)
        } catch let error as LuaError {
            throw frame.argumentError(position, error.message)
        }
    }
}

extension Array: LuaResult where Element: LuaConvertible {
    public func push(to frame: LuaFrame) throws { try frame.push(toLua(in: frame.state)) }
}

extension Dictionary: LuaArgument where Key: LuaConvertible, Value: LuaConvertible {
    public static var luaArgumentName: String { "table" }
    public static func read(from frame: LuaFrame, at position: Int32) throws -> [Key: Value] {
        let value = frame.value(position)
        guard case .table = value else { throw frame.typeError(position, expected: luaArgumentName) }
        do {
            return try [Key: Value].fromLua(value)
        } catch let error as LuaError {
            throw frame.argumentError(position, error.message)
        }
    }
}

extension Dictionary: LuaResult where Key: LuaConvertible, Value: LuaConvertible {
    public func push(to frame: LuaFrame) throws { try frame.push(toLua(in: frame.state)) }
}

extension LuaFrame {
    /// Whether argument `position` is nil or absent.
    public func isNoneOrNil(_ position: Int32) -> Bool { position > count || fh_isnoneornil(L, position) != 0 }

    /// The type name of argument `position` as messages give it.
    public func typeName(_ position: Int32) -> String {
        if position > count { return "no value" }
        switch lua_type(L, position) {
        case LUA_TNUMBER: return lua_isinteger(L, position) != 0 ? "integer" : "float"
        case LUA_TUSERDATA: return state.value(at: position, in: L).typeName
        default: return LuaType(rawValue: lua_type(L, position))?.description ?? "?"
        }
    }
}
