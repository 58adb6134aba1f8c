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
    ///
    /// - Throws: a `LuaError` of kind `.typeMismatch`, worded as Lua's `bad argument #n to 'f' (…)`, when the
    ///   argument at `position` cannot be read as `Self`.
    static func read(from frame: LuaFrame, at position: Int32) throws -> Self
}

/// A Swift type an exported function can return.
public protocol LuaResult {
    /// Pushes the value as one result.
    ///
    /// - Throws: a `LuaError` when the value cannot be pushed — of kind `.closed` for a reference from
    ///   another Lua state, say.
    func push(to frame: LuaFrame) throws
}

extension Int: LuaArgument, LuaResult {
    /// `integer`.
    public static var luaArgumentName: String { "integer" }
    /// The integer at `position` (a float with an exact integer value is accepted).
    ///
    /// - Throws: a bad-argument error naming `position` for anything else.
    @inlinable public static func read(from frame: LuaFrame, at position: Int32) throws -> Int { try frame.integer(position) }
    /// Pushes a Lua integer.
    @inlinable public func push(to frame: LuaFrame) { frame.push(self) }
}

extension Double: LuaArgument, LuaResult {
    /// `number`.
    public static var luaArgumentName: String { "number" }
    /// The finite number at `position`.
    ///
    /// - Throws: a bad-argument error naming `position` for a non-number, NaN or ±inf.
    @inlinable public static func read(from frame: LuaFrame, at position: Int32) throws -> Double { try frame.number(position) }
    /// Pushes a Lua float.
    @inlinable public func push(to frame: LuaFrame) { frame.push(self) }
}

extension Bool: LuaArgument, LuaResult {
    /// `boolean`.
    public static var luaArgumentName: String { "boolean" }
    /// The boolean at `position`.
    ///
    /// - Throws: a bad-argument error naming `position` for anything else.
    @inlinable public static func read(from frame: LuaFrame, at position: Int32) throws -> Bool { try frame.boolean(position) }
    /// Pushes a Lua boolean.
    @inlinable public func push(to frame: LuaFrame) { frame.push(self) }
}

extension String: LuaArgument, LuaResult {
    /// `string`.
    public static var luaArgumentName: String { "string" }
    /// The UTF-8 string at `position`.
    ///
    /// - Throws: a bad-argument error naming `position` for a non-string or bytes that are not UTF-8.
    public static func read(from frame: LuaFrame, at position: Int32) throws -> String { try frame.string(position) }
    /// Pushes a Lua string of the UTF-8 bytes.
    public func push(to frame: LuaFrame) { frame.push(self) }
}

extension LuaValue: LuaArgument, LuaResult {
    /// `value`: anything will do.
    public static var luaArgumentName: String { "value" }
    /// Whatever is at `position` (`nil` if absent).
    ///
    /// - Throws: nothing: any value is read, an absent one as `nil`.
    public static func read(from frame: LuaFrame, at position: Int32) throws -> LuaValue { frame.value(position) }
    /// Pushes the value.
    ///
    /// - Throws: if the value belongs to another Lua state.
    public func push(to frame: LuaFrame) throws { try frame.push(self) }
}

extension Optional: LuaArgument where Wrapped: LuaArgument {
    /// The wrapped type's name with ` or nil`.
    public static var luaArgumentName: String { Wrapped.luaArgumentName + " or nil" }
    /// `nil` or no value reads as `.none`; anything else must be a `Wrapped`.
    ///
    /// - Throws: what `Wrapped.read(from:at:)` throws; a plain type error from it (`… expected, got T`) is
    ///   reworded to expect `… or nil`.
    public static func read(from frame: LuaFrame, at position: Int32) throws -> Wrapped? {
        if frame.isNoneOrNil(position) { return nil }
        do {
            return try Wrapped.read(from: frame, at: position)
        } catch let error as LuaError where error.argument?.position == Int(position) && error.problem?.isWrongType == true {
            throw frame.typeError(position, expected: luaArgumentName)    // "T or nil expected, got U"
        }
    }
}

extension Optional: LuaResult where Wrapped: LuaResult {
    /// Pushes the wrapped value, or `nil`.
    ///
    /// - Throws: what pushing the wrapped value throws.
    public func push(to frame: LuaFrame) throws {
        if let value = self { try value.push(to: frame) } else { frame.pushNil() }
    }
}

extension Array: LuaArgument where Element: LuaConvertible {
    /// `array of <element>`.
    public static var luaArgumentName: String { "array of \(Element.luaTypeName)" }
    /// A sequence table; a wrong element names its index.
    ///
    /// - Throws: a `LuaError` of kind `.typeMismatch` (a bad-argument error naming `position`) when the value
    ///   is not a table, not a sequence, or has an element that is not an `Element` (named by its index).
    public static func read(from frame: LuaFrame, at position: Int32) throws -> [Element] {
        let value = frame.value(position)
        guard case .table = value else { throw frame.typeError(position, expected: luaArgumentName) }
        do {
            return try [Element].fromLua(value)
        } catch let error as LuaError where error.kind == .typeMismatch || error.kind == .encoding {
            throw frame.argumentError(position, error.message, kind: error.kind)   // a limit or a closed state stays what it is
        }
    }
}

extension Array: LuaResult where Element: LuaConvertible {
    /// Pushes a new sequence table.
    ///
    /// - Throws: if an element cannot be converted.
    public func push(to frame: LuaFrame) throws { try frame.push(toLua(in: frame.state)) }
}

extension Dictionary: LuaArgument where Key: LuaConvertible, Value: LuaConvertible {
    /// `table`.
    public static var luaArgumentName: String { "table" }
    /// The table at `position`, its keys and values converted.
    ///
    /// - Throws: a bad-argument error naming `position` and the field that is wrong.
    public static func read(from frame: LuaFrame, at position: Int32) throws -> [Key: Value] {
        let value = frame.value(position)
        guard case .table = value else { throw frame.typeError(position, expected: luaArgumentName) }
        do {
            return try [Key: Value].fromLua(value)
        } catch let error as LuaError where error.kind == .typeMismatch || error.kind == .encoding {
            throw frame.argumentError(position, error.message, kind: error.kind)   // a limit or a closed state stays what it is
        }
    }
}

extension Dictionary: LuaResult where Key: LuaConvertible, Value: LuaConvertible {
    /// Pushes a new table of the converted keys and values.
    ///
    /// - Throws: if a key or value cannot be converted.
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

extension LuaFrame {
    /// Pushes `value` as one result, whatever its type (what generated exports
    /// call: a type whose `push` cannot fail is pushed the same way).
    ///
    /// ```swift
    /// try frame.pushResult(order.total)
    /// ```
    ///
    /// - Throws: what `value`'s ``LuaResult/push(to:)`` throws.
    @inlinable
    public func pushResult<R: LuaResult>(_ value: R) throws {
        try value.push(to: self)
    }
}
