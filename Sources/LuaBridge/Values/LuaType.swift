import CLua

/// The basic types of Lua values, named as Lua's `type()` names them.
public enum LuaType: Int32, Sendable, CustomStringConvertible {
    case none = -1
    case `nil` = 0
    case boolean = 1
    case lightUserdata = 2
    case number = 3
    case string = 4
    case table = 5
    case function = 6
    case userdata = 7
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
