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
///
/// An interface can also say what its methods take and give, and which
/// read-only properties it has: a host can then *generate* an
/// implementation (an assisted factory whose methods make registrations and
/// whose properties are injected dependencies), and check it.
///
/// ```swift
/// protocol PizzaFactory: AnyObject {
///     var creditService: CreditService { get throws }
///     func smallPizza(ingredients: [String]) throws -> Pizza
/// }
/// let pizzaFactory = LuaInterface<any PizzaFactory>("PizzaFactory") { LuaPizzaFactory($0) }
///     .property("creditService", CreditService.self)
///     .method("smallPizza", ("ingredients", [String].self), returning: Pizza.self)
/// ```
// @unchecked Sendable: the vars are value storage (each builder method returns a copy). The two closures,
// `makeAdapter` and the property checks, run on the owner thread of whichever state converts a value. A static
// interface serves hosts on several threads at once, so they must capture no mutable state (these capture none).
public struct LuaInterface<Protocol>: @unchecked Sendable {
    /// The name scripts and messages use.
    public let name: String
    /// The methods every implementation must have.
    public private(set) var requiredMethods: [String]
    /// The methods declared with their signatures (``method(_:_:returning:)``), in order.
    public private(set) var methods: [LuaInterfaceMethod] = []
    /// The read-only properties every implementation must have, in order.
    public private(set) var properties: [LuaInterfaceProperty] = []
    let makeAdapter: (LuaImplementation) -> Protocol
    /// Each property's type check: a value it cannot hold throws.
    private var propertyChecks: [String: (LuaValue) throws -> Void] = [:]

    /// An interface `name` whose Lua implementations need `methods`;
    /// `adapter` wraps a checked table as a `Protocol`.
    public init(_ name: String, requires methods: [String] = [], adapter: @escaping (LuaImplementation) -> Protocol) {
        self.name = name
        self.requiredMethods = methods
        self.makeAdapter = adapter
    }

    /// The interface with method `name`, which takes `parameters` (a name
    /// and a Swift type each, in the order Swift passes them) and returns a
    /// `result`.
    ///
    /// ```swift
    /// .method("pizza", ("radius", Double.self), ("ingredients", [String].self), returning: Pizza.self)
    /// ```
    public func method(_ name: String, _ parameters: (String, Any.Type)..., returning result: Any.Type) -> LuaInterface {
        var copy = self
        let method = LuaInterfaceMethod(name: name, parameters: parameters.map { LuaInterfaceParameter(name: $0.0, type: scriptTypeName(of: $0.1)) },
                                        result: scriptTypeName(of: result))
        copy.methods.removeAll { $0.name == name }
        copy.methods.append(method)
        if !copy.requiredMethods.contains(name) { copy.requiredMethods.append(name) }
        return copy
    }

    /// The interface with a read-only property `name` of `type`, which every
    /// implementation must have (a generated one gets it injected).
    ///
    /// ```swift
    /// .property("creditService", CreditService.self)
    /// ```
    public func property<T: LuaConvertible>(_ name: String, _ type: T.Type) -> LuaInterface {
        var copy = self
        copy.properties.removeAll { $0.name == name }
        copy.properties.append(LuaInterfaceProperty(name: name, type: scriptTypeName(of: type)))
        copy.propertyChecks[name] = { value in _ = try T.fromLua(value) }
        return copy
    }

    /// `value` as a `Protocol`: a Lua table that has every required method
    /// (wrapped by the adapter), a Swift object that already conforms, or an
    /// adapter handed back to Swift. Anything else is a `.typeMismatch` error
    /// that lists what is missing.
    ///
    /// - Throws: that `.typeMismatch` `LuaError`; or, while a table is checked, `.closed` or an error its
    ///   `__index` raises other than a `.runtime` one (a limit that fired, say).
    public func implementation(of value: LuaValue, in state: LuaState) throws -> Protocol {
        switch value {
        case .table(let table):
            // A generated implementation's face: Swift calls what it stands for.
            if let implementing = try state.implementingTable(of: table) {
                let implementation = try LuaImplementation(checking: implementing, implements: self, in: state)
                implementation.present(as: table)
                return makeAdapter(implementation)
            }
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
    ///
    /// - Throws: a `LuaError` of kind `.typeMismatch`, worded as a bad-argument error, when the value does
    ///   not implement the interface; other errors of `implementation(of:in:)` as they are.
    public func argument(_ frame: LuaFrame, _ position: Int32) throws -> Protocol {
        do {
            return try implementation(of: frame.value(position), in: frame.state)
        } catch let error as LuaError where error.kind == .typeMismatch {
            throw frame.argumentError(position, error.message)
        }
    }

    /// The required methods `table` lacks (empty when it implements the interface).
    ///
    /// - Throws: a `LuaError` that `table`'s `__index` raises other than a `.runtime` one (that counts as a
    ///   missing method): `.closed`, or a limit that fired, say.
    public func missingMethods(in table: LuaTable) throws -> [String] {
        try requiredMethods.filter { method in
            if case .function = try member(method, of: table) { return false }
            return true
        }
    }

    /// What keeps `table` from implementing the interface, in words: the
    /// methods it lacks, then each member that is there but no function
    /// (`signIn is a string, not a function`). Empty if it implements it.
    ///
    /// - Throws: a `LuaError` that `table`'s `__index` raises other than a `.runtime` one (that counts as a
    ///   missing member): `.closed`, or a limit that fired, say.
    public func problems(in table: LuaTable) throws -> [String] {
        var missing: [String] = [], wrong: [String] = []
        for method in requiredMethods {
            let value = try member(method, of: table)
            switch value {
            case .function: continue
            case .nil: missing.append(method)
            default: wrong.append("\(method) is \(describeType(of: value)), not a function")
            }
        }
        // Properties are checked here, and again where they are read
        // (``LuaImplementation/property(_:as:)``): the table may change.
        for property in properties {
            let value = try member(property.name, of: table)
            if value.isNil {
                missing.append("property \(property.name)")
            } else if let check = propertyChecks[property.name], (try? check(value)) == nil {
                wrong.append("property \(property.name) is \(describeType(of: value)), not \(property.type)")
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

/// A method of a ``LuaInterface`` with its signature, the types named as
/// scripts name them (`"number"`, `"table"`, `"Pizza"`).
public struct LuaInterfaceMethod: Sendable, Equatable {
    /// The method's name.
    public var name: String
    /// What it takes, in the order Swift passes it.
    public var parameters: [LuaInterfaceParameter]
    /// What it returns.
    public var result: String

    /// `smallPizza(ingredients: table) -> Pizza`.
    public var description: String {
        "\(name)(\(parameters.map { "\($0.name): \($0.type)" }.joined(separator: ", "))) -> \(result)"
    }
}

/// A parameter of a ``LuaInterfaceMethod``.
public struct LuaInterfaceParameter: Sendable, Equatable {
    /// The parameter's name.
    public var name: String
    /// The type as scripts name it.
    public var type: String
}

/// A read-only property of a ``LuaInterface``.
public struct LuaInterfaceProperty: Sendable, Equatable {
    /// The property's name.
    public var name: String
    /// The type as scripts name it.
    public var type: String
}

/// "a string", "an integer", "a Pizza": a value's type with its article.
private func describeType(of value: LuaValue) -> String {
    let name = value.typeName
    return (name.first.map { "aeiouAEIOU".contains($0) } == true ? "an " : "a ") + name
}

/// The name a registration's `args` or `deps` would use for values of
/// `type`: an exported class's name, `integer`, `number`, `string`,
/// `boolean`, `function`, `table` (Swift arrays and dictionaries arrive as
/// tables), `any` for a `LuaValue`.
func scriptTypeName(of type: Any.Type) -> String {
    let name = luaTypeName(of: type)
    if name.hasPrefix("array of ") || name.hasPrefix("table of ") { return "table" }
    return name == "value" ? "any" : name
}
