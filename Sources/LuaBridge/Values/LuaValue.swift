/// Any Lua value, as Swift sees it.
///
/// Integers stay integers (`.integer`) and floats stay floats (`.number`);
/// strings are bytes (`LuaString`); tables, functions, userdata and threads
/// are references into the state that made them.
///
/// ```swift
/// let v = try state.run("return 1, 2.5, 'three', {4}", name: "demo")
/// v[0]                      // .integer(1)
/// v[1]                      // .number(2.5)
/// try v[2].string()         // "three"
/// try v[3].table().array()  // [.integer(4)]
/// ```
public enum LuaValue {
    /// `nil`.
    case `nil`
    /// A boolean.
    case boolean(Bool)
    /// An integer: it stays an integer both ways.
    case integer(Int)
    /// A float.
    case number(Double)
    /// A string: bytes, NULs and invalid UTF-8 included.
    case string(LuaString)
    /// A reference to a table.
    case table(LuaTable)
    /// A reference to a function.
    case function(LuaFunction)
    /// A reference to a full userdata.
    case userdata(LuaUserdata)
    /// A light userdata's pointer.
    case lightUserdata(UnsafeMutableRawPointer?)
    /// A reference to a coroutine.
    case thread(LuaReference)

    /// The Lua type of the value.
    public var type: LuaType {
        switch self {
        case .nil: return .nil
        case .boolean: return .boolean
        case .integer, .number: return .number
        case .string: return .string
        case .table: return .table
        case .function: return .function
        case .userdata: return .userdata
        case .lightUserdata: return .lightUserdata
        case .thread: return .thread
        }
    }

    /// The name of the value's type for messages: Lua's type name, `integer`
    /// or `float` for numbers, and an exported type's name for userdata.
    public var typeName: String {
        switch self {
        case .integer: return "integer"
        case .number: return "float"
        case .userdata(let u): return u.typeName
        default: return type.description
        }
    }

    /// `true` unless the value is `nil` or `false` (Lua's truth).
    public var isTruthy: Bool {
        switch self {
        case .nil, .boolean(false): return false
        default: return true
        }
    }

    /// Whether the value is `nil`.
    public var isNil: Bool { if case .nil = self { return true } else { return false } }
}

// MARK: - Typed reads

extension LuaValue {
    /// The boolean; throws unless the value is a boolean.
    ///
    /// - Throws: a `LuaError` of kind `.typeMismatch` when the value is not a boolean.
    public func bool() throws -> Bool {
        if case .boolean(let b) = self { return b }
        throw LuaError.typeMismatch(expected: "boolean", got: typeName)
    }

    /// The integer; a float with an exact integer value converts, other values throw.
    ///
    /// - Throws: a `LuaError` of kind `.typeMismatch` when the value is not a number (a string is not
    ///   converted) or is a float with no exact integer value.
    public func int() throws -> Int {
        switch self {
        case .integer(let i): return i
        case .number(let d):
            if let i = Int(exactly: d) { return i }
            throw LuaError(.typeMismatch, "number has no integer representation")
        default: throw LuaError.typeMismatch(expected: "integer", got: typeName)
        }
    }

    /// The number as a `Double` (integers convert).
    ///
    /// - Throws: a `LuaError` of kind `.typeMismatch` when the value is not a number (a string is not
    ///   converted).
    public func double() throws -> Double {
        switch self {
        case .integer(let i): return Double(i)
        case .number(let d): return d
        default: throw LuaError.typeMismatch(expected: "number", got: typeName)
        }
    }

    /// The string's bytes; throws unless the value is a string.
    ///
    /// - Throws: a `LuaError` of kind `.typeMismatch` when the value is not a string.
    public func luaString() throws -> LuaString {
        if case .string(let s) = self { return s }
        throw LuaError.typeMismatch(expected: "string", got: typeName)
    }

    /// The string as Swift text; throws unless it is a string of valid UTF-8.
    ///
    /// - Throws: a `LuaError` of kind `.typeMismatch` when the value is not a string, or `.encoding` when it
    ///   is not valid UTF-8.
    public func string() throws -> String { try luaString().string() }

    /// The table; throws unless the value is a table.
    ///
    /// - Throws: a `LuaError` of kind `.typeMismatch` when the value is not a table.
    public func table() throws -> LuaTable {
        if case .table(let t) = self { return t }
        throw LuaError.typeMismatch(expected: "table", got: typeName)
    }

    /// The function; throws unless the value is a function.
    ///
    /// - Throws: a `LuaError` of kind `.typeMismatch` when the value is not a function.
    public func function() throws -> LuaFunction {
        if case .function(let f) = self { return f }
        throw LuaError.typeMismatch(expected: "function", got: typeName)
    }

    /// The userdata; throws unless the value is a full userdata.
    ///
    /// - Throws: a `LuaError` of kind `.typeMismatch` when the value is not a full userdata.
    public func userdata() throws -> LuaUserdata {
        if case .userdata(let u) = self { return u }
        throw LuaError.typeMismatch(expected: "userdata", got: typeName)
    }
}

// MARK: - Literals, equality

extension LuaValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral
{
    /// `nil`.
    public init(nilLiteral: ()) { self = .nil }
    /// A boolean.
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
    /// An integer (it stays an integer).
    public init(integerLiteral value: Int) { self = .integer(value) }
    /// A float.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A string of the literal's UTF-8 bytes.
    public init(stringLiteral value: String) { self = .string(LuaString(value)) }
    /// A string value holding the UTF-8 of `string`.
    public init(_ string: String) { self = .string(LuaString(string)) }
}

extension LuaValue: Hashable {
    /// Values are equal when they are the same case with equal payloads;
    /// references are equal when they refer to the same Lua object.
    public static func == (lhs: LuaValue, rhs: LuaValue) -> Bool {
        switch (lhs, rhs) {
        case (.nil, .nil): return true
        case let (.boolean(a), .boolean(b)): return a == b
        case let (.integer(a), .integer(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.table(a), .table(b)): return a.identity == b.identity
        case let (.function(a), .function(b)): return a.identity == b.identity
        case let (.userdata(a), .userdata(b)): return a.identity == b.identity
        case let (.lightUserdata(a), .lightUserdata(b)): return a == b
        case let (.thread(a), .thread(b)): return a.identity == b.identity
        default: return false
        }
    }

    /// Hashes consistently with ``==(_:_:)``: references by the Lua object they refer to.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(type.rawValue)
        switch self {
        case .nil: break
        case .boolean(let b): hasher.combine(b)
        case .integer(let i): hasher.combine(i)
        case .number(let d): hasher.combine(d)
        case .string(let s): hasher.combine(s)
        case .table(let r as LuaReference), .function(let r as LuaReference),
            .userdata(let r as LuaReference), .thread(let r):
            hasher.combine(r.identity)
        case .lightUserdata(let p): hasher.combine(p)
        }
    }
}

extension LuaValue: CustomStringConvertible {
    /// A short rendering for messages and debugging (not Lua's tostring).
    public var description: String {
        switch self {
        case .nil: return "nil"
        case .boolean(let b): return b ? "true" : "false"
        case .integer(let i): return String(i)
        case .number(let d): return String(d)
        case .string(let s): return "\"" + s.description + "\""
        case .table(let t): return "table: \(t.identity.map { String(describing: $0) } ?? "?")"
        case .function(let f): return "function: \(f.identity.map { String(describing: $0) } ?? "?")"
        case .userdata(let u): return "\(u.typeName): \(u.identity.map { String(describing: $0) } ?? "?")"
        case .lightUserdata(let p): return "userdata: \(p.map { String(describing: $0) } ?? "NULL")"
        case .thread(let t): return "thread: \(t.identity.map { String(describing: $0) } ?? "?")"
        }
    }
}
