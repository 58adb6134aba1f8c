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
    ///
    /// - Throws: a `LuaError` when `value` cannot be read as `Self`, by convention of kind `.typeMismatch`.
    static func fromLua(_ value: LuaValue) throws -> Self
    /// Converts to a Lua value (tables are created in `state`).
    ///
    /// - Throws: a `LuaError` when the value cannot be made in `state` — of kind `.closed` when the state is
    ///   closed, say.
    func toLua(in state: LuaState) throws -> LuaValue
}

extension LuaValue: LuaConvertible {
    /// `value`: any Lua value will do.
    public static var luaTypeName: String { "value" }
    /// The value itself.
    ///
    /// - Throws: nothing; `throws` only meets the `LuaConvertible` requirement.
    public static func fromLua(_ value: LuaValue) throws -> LuaValue { value }
    /// The value itself.
    ///
    /// - Throws: nothing; `throws` only meets the `LuaConvertible` requirement.
    public func toLua(in state: LuaState) throws -> LuaValue { self }
}

extension Bool: LuaConvertible {
    /// `boolean`.
    public static var luaTypeName: String { "boolean" }
    /// A Lua boolean (not a truthy value).
    ///
    /// - Throws: `.typeMismatch` for anything else.
    public static func fromLua(_ value: LuaValue) throws -> Bool { try value.bool() }
    /// A Lua boolean.
    ///
    /// - Throws: nothing; `throws` only meets the `LuaConvertible` requirement.
    public func toLua(in state: LuaState) throws -> LuaValue { .boolean(self) }
}

extension Int: LuaConvertible {
    /// `integer`.
    public static var luaTypeName: String { "integer" }
    /// A Lua integer, or a float with an exact integer value.
    ///
    /// - Throws: `.typeMismatch` for anything else.
    public static func fromLua(_ value: LuaValue) throws -> Int { try value.int() }
    /// A Lua integer (it stays an integer).
    ///
    /// - Throws: nothing; `throws` only meets the `LuaConvertible` requirement.
    public func toLua(in state: LuaState) throws -> LuaValue { .integer(self) }
}

extension Double: LuaConvertible {
    /// `number`.
    public static var luaTypeName: String { "number" }
    /// A finite number: NaN and ±inf are refused, as for arguments (see
    /// ``LuaFrame/number(_:)``); ``LuaValue/double()`` reads any number.
    ///
    /// - Throws: a `LuaError` of kind `.typeMismatch` for a non-number, NaN or ±inf.
    public static func fromLua(_ value: LuaValue) throws -> Double {
        let number = try value.double()
        guard number.isFinite else {
            throw LuaError(.typeMismatch, "finite number expected, got \(number.isNaN ? "nan" : number < 0 ? "-inf" : "inf")")
        }
        return number
    }
    /// A Lua float.
    ///
    /// - Throws: nothing; `throws` only meets the `LuaConvertible` requirement.
    public func toLua(in state: LuaState) throws -> LuaValue { .number(self) }
}

extension String: LuaConvertible {
    /// `string`.
    public static var luaTypeName: String { "string" }
    /// A Lua string of valid UTF-8.
    ///
    /// - Throws: `.typeMismatch` for another type, `.encoding` for bytes that are not UTF-8 (read a ``LuaString`` to keep any bytes).
    public static func fromLua(_ value: LuaValue) throws -> String { try value.string() }
    /// A Lua string of the UTF-8 bytes.
    ///
    /// - Throws: nothing; `throws` only meets the `LuaConvertible` requirement.
    public func toLua(in state: LuaState) throws -> LuaValue { .string(LuaString(self)) }
}

extension LuaString: LuaConvertible {
    /// `string`.
    public static var luaTypeName: String { "string" }
    /// A Lua string, byte for byte.
    ///
    /// - Throws: `.typeMismatch` for anything else.
    public static func fromLua(_ value: LuaValue) throws -> LuaString { try value.luaString() }
    /// A Lua string, byte for byte.
    ///
    /// - Throws: nothing; `throws` only meets the `LuaConvertible` requirement.
    public func toLua(in state: LuaState) throws -> LuaValue { .string(self) }
}

extension LuaTable: LuaConvertible {
    /// `table`.
    public static var luaTypeName: String { "table" }
    /// A Lua table.
    ///
    /// - Throws: `.typeMismatch` for anything else.
    public static func fromLua(_ value: LuaValue) throws -> Self {
        guard let t = try value.table() as? Self else { throw LuaError.typeMismatch(expected: "table", got: value.typeName) }
        return t
    }
    /// The table itself.
    ///
    /// - Throws: nothing; a table of another state is refused (`.closed`) only where it is pushed.
    public func toLua(in state: LuaState) throws -> LuaValue { .table(self) }
}

extension LuaFunction: LuaConvertible {
    /// `function`.
    public static var luaTypeName: String { "function" }
    /// A Lua function.
    ///
    /// - Throws: `.typeMismatch` for anything else.
    public static func fromLua(_ value: LuaValue) throws -> Self {
        guard let f = try value.function() as? Self else { throw LuaError.typeMismatch(expected: "function", got: value.typeName) }
        return f
    }
    /// The function itself.
    ///
    /// - Throws: nothing; a function of another state is refused (`.closed`) only where it is pushed.
    public func toLua(in state: LuaState) throws -> LuaValue { .function(self) }
}

extension Optional: LuaConvertible where Wrapped: LuaConvertible {
    /// The wrapped type's name with `?` (`integer?`).
    public static var luaTypeName: String { Wrapped.luaTypeName + "?" }
    /// `nil` reads as `.none`; anything else must be a `Wrapped`.
    ///
    /// - Throws: a `LuaError` of kind `.typeMismatch` (`X or nil expected, got T`, in place of `Wrapped`'s
    ///   own message) when a non-nil value is of another type; other errors (a table whose field is
    ///   wrong: `Address.street: string expected, got integer`) as they are.
    public static func fromLua(_ value: LuaValue) throws -> Wrapped? {
        if case .nil = value { return nil }
        do {
            return try Wrapped.fromLua(value)
        } catch let error as LuaError where error.kind == .typeMismatch && error.problem?.isWrongType == true {
            // (A value of the right type whose content is wrong keeps its own reason.)
            throw LuaError.typeMismatch(expected: "\(Wrapped.luaTypeName) or nil", got: value.typeName)
        }
    }
    /// `nil` for `.none`, else the wrapped value's conversion.
    ///
    /// - Throws: what the wrapped value's `toLua(in:)` throws.
    public func toLua(in state: LuaState) throws -> LuaValue {
        try self.map { try $0.toLua(in: state) } ?? .nil
    }
}

extension Array: LuaConvertible where Element: LuaConvertible {
    /// `array of <element>`.
    public static var luaTypeName: String { "array of \(Element.luaTypeName)" }
    /// A sequence table `{v1, v2, …}`; an element of the wrong type names its index.
    ///
    /// - Throws: a `LuaError` of kind `.typeMismatch` when `value` is not a sequence table; an element's
    ///   error keeps its kind, its message prefixed `element [i]: `.
    public static func fromLua(_ value: LuaValue) throws -> [Element] {
        guard case .table(let table) = value else {
            throw LuaError.typeMismatch(expected: luaTypeName, got: value.typeName)
        }
        try ConversionDepth.check(luaTypeName)
        return try table.array().enumerated().map { index, item in
            do {
                return try Element.fromLua(item)
            } catch let error as LuaError {
                throw LuaError.within("element [\(index + 1)]: ", error)
            }
        }
    }
    /// A new sequence table `{v1, v2, …}`.
    ///
    /// - Throws: a `LuaError` of kind `.closed` when `state` is closed, or what an element's `toLua(in:)`
    ///   throws.
    public func toLua(in state: LuaState) throws -> LuaValue {
        try ConversionDepth.check(Self.luaTypeName)
        let table = try state.newTable(arrayCapacity: count)
        for (index, item) in enumerated() { try table.rawSet(.integer(index + 1), item.toLua(in: state)) }
        return .table(table)
    }
}

extension Dictionary: LuaConvertible where Key: LuaConvertible, Value: LuaConvertible {
    /// `table of <key> to <value>`.
    public static var luaTypeName: String { "table of \(Key.luaTypeName) to \(Value.luaTypeName)" }
    /// A table; a key or value of the wrong type names the key.
    ///
    /// - Throws: a `LuaError` of kind `.typeMismatch` when `value` is not a table; a key's or value's error
    ///   keeps its kind, its message prefixed `field [key]: `.
    public static func fromLua(_ value: LuaValue) throws -> [Key: Value] {
        guard case .table(let table) = value else {
            throw LuaError.typeMismatch(expected: luaTypeName, got: value.typeName)
        }
        try ConversionDepth.check(luaTypeName)
        var result: [Key: Value] = [:]
        for (k, v) in try table.pairs() {
            do {
                result[try Key.fromLua(k)] = try Value.fromLua(v)
            } catch let error as LuaError {
                throw LuaError.within("field [\(k)]: ", error)
            }
        }
        return result
    }
    /// A new table of the converted keys and values.
    ///
    /// - Throws: a `LuaError`: `.closed` when `state` is closed, `.typeMismatch` when a key converts to nil
    ///   or NaN, or what a key's or value's `toLua(in:)` throws.
    public func toLua(in state: LuaState) throws -> LuaValue {
        try ConversionDepth.check(Self.luaTypeName)
        let table = try state.newTable(hashCapacity: count)
        for (k, v) in self { try table.rawSet(k.toLua(in: state), v.toLua(in: state)) }
        return .table(table)
    }
}
