/// The names an exported class shows scripts: what completion, generated
/// type files and the plugins' hostile-input sweep enumerate.
///
/// ```swift
/// let members = LuaClass<Cache>().constructor { Cache() }.method("get") { … }.members
/// members.methods        // ["get"]
/// ```
public struct LuaClassMembers: Sendable, Equatable {
    /// The class's Lua name.
    public var name: String
    /// Whether `Type.new(…)` exists.
    public var hasConstructor: Bool
    /// Functions on the class table other than `new` (`LoopbackServer.start`).
    public var classFunctions: [String]
    /// Methods, called `object:name(…)`.
    public var methods: [String]
    /// Properties, read as `object.name`, sorted.
    public var properties: [String]
    /// Properties that can also be set, sorted.
    public var settableProperties: [String]
    /// What `Type.new` takes: its argument types (`["Cache", "HTTPSession"]`),
    /// `["table of named arguments"]` for `Type.new { … }`, nil when it reads
    /// its arguments itself (or there is none).
    public var constructorArguments: [String]?
    /// Each method's signature, when it declares one.
    public var signatures: [String: LuaSignature] = [:]
    /// Each property's type (`"integer"`, `"Cache"`, `"value"` when unknown).
    public var propertyTypes: [String: String] = [:]
    /// Each member's parameter names, where its declaration gives them (`new`: the constructor's).
    public var parameterNames: [String: [String]] = [:]
    /// Each member's one-line summary, where its declaration gives one.
    public var summaries: [String: String] = [:]
}

/// What a method takes and gives, as scripts see the types.
public struct LuaSignature: Sendable, Equatable {
    /// The argument types after the receiver (`["string", "integer"]`).
    public var arguments: [String]
    /// The result type, nil when it returns nothing.
    public var result: String?

    /// A signature taking `arguments` after the receiver and giving `result` (nil: nothing).
    public init(arguments: [String], result: String?) {
        self.arguments = arguments
        self.result = result
    }
}

/// The name scripts know a Swift type by (`"integer"`, `"Cache"`, `"string?"`),
/// or "value" when it has none.
func luaTypeName(of type: Any.Type) -> String {
    if let argument = type as? any LuaArgument.Type { return argument.luaArgumentName }
    if let convertible = type as? any LuaConvertible.Type { return convertible.luaTypeName }
    return "value"
}

extension LuaClass {
    /// The names this class shows scripts.
    public var members: LuaClassMembers {
        var members = LuaClassMembers(name: name, hasConstructor: constructorBody != nil || namedConstructorBody != nil,
                                      classFunctions: classFunctions.map(\.0), methods: methods.map(\.name),
                                      properties: getters.keys.sorted(), settableProperties: setters.keys.sorted())
        members.constructorArguments = namedConstructorBody != nil ? ["table of named arguments"]
            : constructorArguments.map { $0.map(luaTypeName(of:)) }
        for method in methods {
            guard let arguments = method.arguments, let result = method.result else { continue }
            members.signatures[method.name] = LuaSignature(arguments: arguments.map(luaTypeName(of:)),
                                                           result: result == Void.self ? nil : luaTypeName(of: result))
        }
        for (name, type) in propertyTypes { members.propertyTypes[name] = luaTypeName(of: type) }
        for (name, entry) in documentation {
            if let parameters = entry.parameters { members.parameterNames[name] = parameters }
            if let summary = entry.summary { members.summaries[name] = summary }
            // Argument types the declaration names where Swift's type cannot tell (`any PaymentGateway`).
            guard let types = entry.argumentTypes else { continue }
            func named(_ found: [String]) -> [String] {
                zip(found, types + Array(repeating: nil, count: max(0, found.count - types.count))).map { $1 ?? $0 }
            }
            if name == "new", let arguments = members.constructorArguments { members.constructorArguments = named(arguments) }
            if let signature = members.signatures[name] { members.signatures[name]?.arguments = named(signature.arguments) }
        }
        return members
    }

    /// The functions on the class table other than `new`, in the order they
    /// were added (cheaper than ``members``: nothing is sorted).
    ///
    /// ```swift
    /// LuaClass<LoopbackServer>().classFunction("start") { … }.classFunctionNames   // ["start"]
    /// ```
    public var classFunctionNames: [String] { classFunctions.map(\.0) }
}
