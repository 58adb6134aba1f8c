import CLua

/// The basic types of Lua values, named as Lua's `type()` names them.
public enum LuaType: Int32, Sendable, CustomStringConvertible {
    /// No value at all (a stack slot past the top).
    case none = -1
    /// `nil`.
    case `nil` = 0
    /// A boolean.
    case boolean = 1
    /// A light userdata: a bare C pointer.
    case lightUserdata = 2
    /// A number, integer or float.
    case number = 3
    /// A string.
    case string = 4
    /// A table.
    case table = 5
    /// A function, Lua or C.
    case function = 6
    /// A full userdata (a Swift object, say).
    case userdata = 7
    /// A coroutine.
    case thread = 8

    /// The name Lua's `type()` returns (`"no value"` for none).
    public var description: String {
        switch self {
        case .none: return "no value"
        case .nil: return "nil"
        case .boolean: return "boolean"
        case .lightUserdata: return "userdata"
        case .number: return "number"
        case .string: return "string"
        case .table: return "table"
        case .function: return "function"
        case .userdata: return "userdata"
        case .thread: return "thread"
        }
    }
}
