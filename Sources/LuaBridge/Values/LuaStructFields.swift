/// What `@Scriptable` generates for a struct calls: a struct is a value, so
/// scripts hold it as a table of its stored properties (`{ x = 1, y = 2 }`),
/// read back field by field, each checked and a wrong one named.
///
/// ```swift
/// let x = try LuaStructFields.read(table, "x", as: Int.self, of: "Point")
/// ```
public enum LuaStructFields {
    /// Field `name` of `table` as a `T`; an error naming the struct and the field otherwise.
    ///
    /// - Throws: a `LuaError` (`.typeMismatch`): `Point.x: integer expected, got string`.
    public static func read<T: LuaConvertible>(_ table: LuaTable, _ name: String, as type: T.Type, of structName: String) throws -> T {
        let value = try table.get(LuaValue(name))
        do {
            return try T.fromLua(value)
        } catch let error as LuaError where error.kind == .typeMismatch {
            // A nested value's own reason (`Address.street: string expected, got integer`) is kept.
            if value.isNil || error.problem?.isWrongType == true {
                throw LuaError(.typeMismatch, "\(structName).\(name): \(T.luaTypeName) expected, got \(value.isNil ? "nothing" : value.typeName)")
            }
            throw LuaError.within("\(structName).\(name): ", error)
        }
    }

    /// Field `name` of `table` as a `T`, or `defaultValue` when the table
    /// lacks it (a field declared with a default value: `var country = "NL"`).
    ///
    /// ```swift
    /// let country = try LuaStructFields.read(table, "country", as: String.self, of: "Address", default: "NL")
    /// ```
    ///
    /// - Throws: a `LuaError` (`.typeMismatch`) naming the struct and the field when it holds something else.
    public static func read<T: LuaConvertible>(_ table: LuaTable, _ name: String, as type: T.Type, of structName: String,
                                               default defaultValue: @autoclosure () -> T) throws -> T {
        guard try !table.get(LuaValue(name)).isNil else { return defaultValue() }
        return try read(table, name, as: type, of: structName)
    }

    /// A new table for a struct named `structName` with `fields` fields —
    /// refused when values nest too deep to convert (a tree 100,000 levels deep).
    ///
    /// - Throws: a `LuaError`: `.typeMismatch` (problem `.nestedTooDeeply`), or `.closed` when `state` is closed.
    public static func newTable(in state: LuaState, fields: Int, of structName: String) throws -> LuaTable {
        try ConversionDepth.check(structName)
        return try state.newTable(hashCapacity: fields)
    }

    /// `value` as the table of a struct named `structName`.
    ///
    /// - Throws: a `LuaError` (`.typeMismatch`) for anything but a table.
    public static func table(_ value: LuaValue, of structName: String) throws -> LuaTable {
        guard case .table(let table) = value else { throw LuaError.typeMismatch(expected: structName, got: value.typeName) }
        try ConversionDepth.check(structName)
        return table
    }
}
