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
            throw LuaError(.typeMismatch, "\(structName).\(name): \(T.luaTypeName) expected, got \(value.isNil ? "nothing" : value.typeName)")
        }
    }

    /// `value` as the table of a struct named `structName`.
    ///
    /// - Throws: a `LuaError` (`.typeMismatch`) for anything but a table.
    public static func table(_ value: LuaValue, of structName: String) throws -> LuaTable {
        guard case .table(let table) = value else { throw LuaError.typeMismatch(expected: structName, got: value.typeName) }
        return table
    }
}
