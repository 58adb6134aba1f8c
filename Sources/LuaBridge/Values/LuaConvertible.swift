/// A Swift type that converts to and from Lua values.
///
/// The bridge conforms `Bool`, `Int`, `Double`, `String`, `LuaString`,
/// `LuaValue`, the reference types, `Optional`, `Array` and `Dictionary`.
/// A failed read throws a `.typeMismatch` error naming what was expected
/// and what was found.
///
/// ```swift
/// let scores = try [String: Int].fromLua(lua.run("return {a = 1, b = 2}", name: "t")[0])
/// let table = try ["x", "y"].toLua(in: lua)     // a Lua table {"x", "y"}
/// ```
public protocol LuaConvertible {
    /// The Lua-facing name of the type for messages (`"integer"`, `"string"`, …).
    static var luaTypeName: String { get }
    /// Reads a value of this type.
    static func fromLua(_ value: LuaValue) throws -> Self
    /// Converts to a Lua value (tables are created in `state`).
    func toLua(in state: LuaState) throws -> LuaValue
}

extension LuaValue: LuaConvertible {
    public static var luaTypeName: String { "value" }
    public static func fromLua(_ value: LuaValue) throws -> LuaValue { value }
    public func toLua(in state: LuaState) throws -> LuaValue { self }
}

extension Bool: LuaConvertible {
    public static var luaTypeName: String { "boolean" }
    public static func fromLua(_ value: LuaValue) throws -> Bool { try value.bool() }
    public func toLua(in state: LuaState) throws -> LuaValue { .boolean(self) }
}

extension Int: LuaConvertible {
    public static var luaTypeName: String { "integer" }
    public static func fromLua(_ value: LuaValue) throws -> Int { try value.int() }
    public func toLua(in state: LuaState) throws -> LuaValue { .integer(self) }
}

extension Double: LuaConvertible {
    public static var luaTypeName: String { "number" }
    /// A finite number: NaN and ±inf are refused, as for arguments (see
    /// ``LuaFrame/number(_:)``); ``LuaValue/double()`` reads any number.
    public static func fromLua(_ value: LuaValue) throws -> Double {
        let number = try value.double()
        guard number.isFinite else {
            throw LuaError(.typeMismatch, "finite number expected, got \(number.isNaN ? "nan" : number < 0 ? "-inf" : "inf")")
        }
        return number
    }
    public func toLua(in state: LuaState) throws -> LuaValue { .number(self) }
}

extension String: LuaConvertible {
    public static var luaTypeName: String { "string" }
    public static func fromLua(_ value: LuaValue) throws -> String { try value.string() }
    public func toLua(in state: LuaState) throws -> LuaValue { .string(LuaString(self)) }
}

extension LuaString: LuaConvertible {
    public static var luaTypeName: String { "string" }
    public static func fromLua(_ value: LuaValue) throws -> LuaString { try value.luaString() }
    public func toLua(in state: LuaState) throws -> LuaValue { .string(self) }
}

extension LuaTable: LuaConvertible {
    public static var luaTypeName: String { "table" }
    public static func fromLua(_ value: LuaValue) throws -> Self {
        guard let t = try value.table() as? Self else { throw LuaError.typeMismatch(expected: "table", got: value.typeName) }
        return t
    }
    public func toLua(in state: LuaState) throws -> LuaValue { .table(self) }
}

extension LuaFunction: LuaConvertible {
    public static var luaTypeName: String { "function" }
    public static func fromLua(_ value: LuaValue) throws -> Self {
        guard let f = try value.function() as? Self else { throw LuaError.typeMismatch(expected: "function", got: value.typeName) }
        return f
    }
    public func toLua(in state: LuaState) throws -> LuaValue { .function(self) }
}

extension Optional: LuaConvertible where Wrapped: LuaConvertible {
    public static var luaTypeName: String { Wrapped.luaTypeName + "?" }
    /// `nil` reads as `.none`; anything else must be a `Wrapped`.
    public static func fromLua(_ value: LuaValue) throws -> Wrapped? {
        if case .nil = value { return nil }
        do {
            return try Wrapped.fromLua(value)
        } catch let error as LuaError where error.kind == .typeMismatch {
            throw LuaError.typeMismatch(expected: "\(Wrapped.luaTypeName) or nil", got: value.typeName)
        }
    }
    public func toLua(in state: LuaState) throws -> LuaValue {
        try self.map { try $0.toLua(in: state) } ?? .nil
    }
}

extension Array: LuaConvertible where Element: LuaConvertible {
    public static var luaTypeName: String { "array of \(Element.luaTypeName)" }
    /// A sequence table `{v1, v2, …}`; an element of the wrong type names its index.
    public static func fromLua(_ value: LuaValue) throws -> [Element] {
        guard case .table(let table) = value else {
            throw LuaError.typeMismatch(expected: luaTypeName, got: value.typeName)
        }
        return try table.array().enumerated().map { index, item in
            do {
                return try Element.fromLua(item)
            } catch let error as LuaError {
                throw LuaError(error.kind, "element [\(index + 1)]: \(error.message)")
            }
        }
    }
    public func toLua(in state: LuaState) throws -> LuaValue {
        let table = try state.newTable(arrayCapacity: count)
        for (index, item) in enumerated() { try table.rawSet(.integer(index + 1), item.toLua(in: state)) }
        return .table(table)
    }
}

extension Dictionary: LuaConvertible where Key: LuaConvertible, Value: LuaConvertible {
    public static var luaTypeName: String { "table of \(Key.luaTypeName) to \(Value.luaTypeName)" }
    /// A table; a key or value of the wrong type names the key.
    public static func fromLua(_ value: LuaValue) throws -> [Key: Value] {
        guard case .table(let table) = value else {
            throw LuaError.typeMismatch(expected: luaTypeName, got: value.typeName)
        }
        var result: [Key: Value] = [:]
        for (k, v) in try table.pairs() {
            do {
                result[try Key.fromLua(k)] = try Value.fromLua(v)
            } catch let error as LuaError {
                throw LuaError(error.kind, "field [\(k)]: \(error.message)")
            }
        }
        return result
    }
    public func toLua(in state: LuaState) throws -> LuaValue {
        let table = try state.newTable(hashCapacity: count)
        for (k, v) in self { try table.rawSet(k.toLua(in: state), v.toLua(in: state)) }
        return .table(table)
    }
}
