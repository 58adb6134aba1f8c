/// A Swift protocol as Lua sees it: a name and the methods a Lua table must
/// have to implement it, and the adapter that lets Swift call such a table
/// like any conforming object.
///
/// ```swift
/// protocol AuthRemoteAPI: AnyObject { func signIn(_ user: String, _ password: String) throws -> UserSession }
///
/// final class LuaAuthRemoteAPI: AuthRemoteAPI, LuaImplemented {
///     let implementation: LuaImplementation
///     init(_ implementation: LuaImplementation) { self.implementation = implementation }
///     func signIn(_ user: String, _ password: String) throws -> UserSession {
///         try implementation.call("signIn", user, password, returning: UserSession.self)
///     }
/// }
///
/// let auth = LuaInterface<any AuthRemoteAPI>("AuthRemoteAPI", requires: ["signIn"]) { LuaAuthRemoteAPI($0) }
/// let api = try auth.implementation(of: table, in: lua)   // checks signIn is there, wraps the table
/// ```
public struct LuaInterface<Protocol>: @unchecked Sendable {
    /// The name scripts and messages use.
    public let name: String
    /// The methods every implementation must have.
    public let requiredMethods: [String]
    let makeAdapter: (LuaImplementation) -> Protocol

    /// An interface `name` whose Lua implementations need `methods`;
    /// `adapter` wraps a checked table as a `Protocol`.
    public init(_ name: String, requires methods: [String], adapter: @escaping (LuaImplementation) -> Protocol) {
        self.name = name
        self.requiredMethods = methods
        self.makeAdapter = adapter
    }

    /// `value` as a `Protocol`: a Lua table that has every required method
    /// (wrapped by the adapter), a Swift object that already conforms, or an
    /// adapter handed back to Swift. Anything else is a `.typeMismatch` error
    /// that lists what is missing.
    public func implementation(of value: LuaValue, in state: LuaState) throws -> Protocol {
        switch value {
        case .table(let table):
            return makeAdapter(try LuaImplementation(checking: table, implements: self, in: state))
        case .userdata(let userdata):
            if let object = userdata.object(as: AnyObject.self) as? Protocol { return object }
            throw LuaError.typeMismatch(expected: name, got: value.typeName)
        default:
            throw LuaError.typeMismatch(expected: name, got: value.typeName)
        }
    }

    /// Argument `position` of an exported function as a `Protocol`, with a
    /// Lua-style error: `bad argument #1 to 'SignInViewModel.new' (table does
    /// not implement AuthRemoteAPI: missing signIn)`.
    public func argument(_ frame: LuaFrame, _ position: Int32) throws -> Protocol {
        do {
            return try implementation(of: frame.value(position), in: frame.state)
        } catch let error as LuaError where error.kind == .typeMismatch {
            throw frame.argumentError(position, error.message)
        }
    }

    /// The required methods `table` lacks (empty when it implements the interface).
    public func missingMethods(in table: LuaTable) throws -> [String] {
        try requiredMethods.filter { method in
            if case .function = try member(method, of: table) { return false }
            return true
        }
    }

    /// What keeps `table` from implementing the interface, in words: the
    /// methods it lacks, then each member that is there but no function
    /// (`signIn is a string, not a function`). Empty if it implements it.
    public func problems(in table: LuaTable) throws -> [String] {
        var missing: [String] = [], wrong: [String] = []
        for method in requiredMethods {
            let value = try member(method, of: table)
            switch value {
            case .function: continue
            case .nil: missing.append(method)
            default: wrong.append("\(method) is \(value.typeName.first.map { "aeiou".contains($0) } == true ? "an" : "a") \(value.typeName), not a function")
            }
        }
        return (missing.isEmpty ? [] : ["missing " + missing.joined(separator: ", ")]) + wrong
    }

    /// `table[method]`; nil where its `__index` raises for it (a strict
    /// module or class table has no such member). Limits still stop the check.
    private func member(_ method: String, of table: LuaTable) throws -> LuaValue {
        do {
            return try table.get(LuaValue(method))
        } catch let error as LuaError where error.kind == .runtime {
            return .nil
        }
    }
}

/// A Swift adapter over a Lua implementation; handing it back to Lua gives
/// the original table, so identity survives the round trip.
public protocol LuaImplemented: AnyObject {
    /// The Lua table the adapter calls.
    var implementation: LuaImplementation { get }
}
