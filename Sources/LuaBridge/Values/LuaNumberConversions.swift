/// The other numeric types an exported member may take or return: each
/// fixed-width integer (`Int8` … `UInt64`, `UInt`) read as a Lua integer and
/// checked against its range, and `Float` as a finite number.
///
/// ```swift
/// @Scriptable final class Volume { func set(_ level: UInt8) { … } }
/// // volume:set(300) → bad argument #1 to 'Volume:set' (integer in UInt8's range 0…255 expected, got 300)
/// ```
public protocol LuaFixedWidthInteger: FixedWidthInteger, LuaConvertible, LuaArgument, LuaResult {}

extension LuaFixedWidthInteger {
    /// `integer`.
    public static var luaTypeName: String { "integer" }
    /// `integer`.
    public static var luaArgumentName: String { "integer" }

    static func checked(_ value: Int) throws -> Self {
        guard let exact = Self(exactly: value) else {
            throw LuaError(.typeMismatch, "integer in \(Self.self)'s range \(Self.min)…\(Self.max) expected, got \(value)")
        }
        return exact
    }

    /// A Lua integer (or a float with an exact integer value) within the type's range.
    ///
    /// - Throws: `.typeMismatch` for anything else, or a value out of range.
    public static func fromLua(_ value: LuaValue) throws -> Self { try checked(value.int()) }

    /// A Lua integer.
    ///
    /// - Throws: `.typeMismatch` for a value above `Int.max` (a Lua integer is 64 bits, signed).
    public func toLua(in state: LuaState) throws -> LuaValue {
        guard let int = Int(exactly: self) else {
            throw LuaError(.typeMismatch, "\(Self.self) \(self) does not fit a Lua integer (at most \(Int.max))")
        }
        return .integer(int)
    }

    /// The integer at `position`, within the type's range.
    ///
    /// - Throws: a bad-argument error naming `position` for anything else.
    public static func read(from frame: LuaFrame, at position: Int32) throws -> Self {
        let int = try frame.integer(position)
        do { return try checked(int) } catch let error as LuaError { throw frame.argumentError(position, error.message) }
    }

    /// Pushes a Lua integer.
    ///
    /// - Throws: `.typeMismatch` for a value above `Int.max`.
    public func push(to frame: LuaFrame) throws { try frame.push(toLua(in: frame.state)) }
}

extension Int8: LuaFixedWidthInteger {}
extension Int16: LuaFixedWidthInteger {}
extension Int32: LuaFixedWidthInteger {}
extension Int64: LuaFixedWidthInteger {}
extension UInt8: LuaFixedWidthInteger {}
extension UInt16: LuaFixedWidthInteger {}
extension UInt32: LuaFixedWidthInteger {}
extension UInt64: LuaFixedWidthInteger {}
extension UInt: LuaFixedWidthInteger {}

extension Float: LuaConvertible, LuaArgument, LuaResult {
    /// `number`.
    public static var luaTypeName: String { "number" }
    /// `number`.
    public static var luaArgumentName: String { "number" }
    /// A finite number within `Float`'s range (rounded to the nearest `Float`).
    ///
    /// - Throws: `.typeMismatch` for a non-number, NaN, ±inf, or a number beyond `Float`'s range.
    public static func fromLua(_ value: LuaValue) throws -> Float { try checked(Double.fromLua(value)) }

    static func checked(_ number: Double) throws -> Float {
        let float = Float(number)
        guard float.isFinite else {
            throw LuaError(.typeMismatch, "number in Float's range (±\(Float.greatestFiniteMagnitude)) expected, got \(number)")
        }
        return float
    }
    /// A Lua float.
    ///
    /// - Throws: nothing; `throws` only meets the `LuaConvertible` requirement.
    public func toLua(in state: LuaState) throws -> LuaValue { .number(Double(self)) }
    /// The finite number at `position`, within `Float`'s range.
    ///
    /// - Throws: a bad-argument error naming `position` for a non-number, NaN, ±inf, or a number beyond `Float`'s range.
    public static func read(from frame: LuaFrame, at position: Int32) throws -> Float {
        let number = try frame.number(position)
        do { return try checked(number) } catch let error as LuaError { throw frame.argumentError(position, error.message) }
    }
    /// Pushes a Lua float.
    public func push(to frame: LuaFrame) { frame.push(Double(self)) }
}
