import FactoryRegistry
import LuaBridge

/// Everything a configuration script can name, for editors and linters:
/// the DSL's globals, the test runner's, and each installed plugin module's
/// classes (constructors, class functions, methods, properties), interfaces
/// and functions, with the types Swift checks. `factoryhost types` writes it
/// as lua-language-server definitions, a luacheck standard or JSON.
///
/// ```swift
/// let definitions = try ScriptDefinitions(host: host)
/// print(definitions.luaLanguageServerFile())   // ---@meta factoryhost …
/// ```
public struct ScriptDefinitions: Sendable, Equatable {
    /// A parameter of a function or method: a name for editors, and its type
    /// as scripts write it (`"integer"`, `"Cache"`, `"string?"`, `"[Handler]"`).
    public struct Parameter: Sendable, Equatable {
        /// The parameter's name.
        public var name: String
        /// Its type as scripts write it.
        public var type: String
    }

    /// A constructor, class function, method or module function.
    public struct Function: Sendable, Equatable {
        /// The function's name (`new` for a constructor).
        public var name: String
        /// Nil when the function reads its arguments itself (any number, any type).
        public var parameters: [Parameter]?
        /// Nil when it returns nothing, or nothing is declared.
        public var result: String?
        /// What it does, in one line, when its declaration says (a doc comment).
        public var summary: String? = nil
    }

    /// A property read (and maybe set) on an object.
    public struct Property: Sendable, Equatable {
        /// The property's name.
        public var name: String
        /// Its type as scripts write it.
        public var type: String
        /// Whether scripts may set it.
        public var settable: Bool
        /// Its doc comment's first line, if it has one.
        public var summary: String? = nil
    }

    /// An exported Swift class.
    public struct Class: Sendable, Equatable {
        /// The class's name (`MovieLoader`).
        public var name: String
        /// `Type.new`, if it has one.
        public var constructor: Function?
        /// Other functions of the class table (`LoopbackServer.start`).
        public var classFunctions: [Function]
        /// Its methods, called with `:`.
        public var methods: [Function]
        /// Its properties.
        public var properties: [Property]
    }

    /// An exported Swift protocol, implemented by Lua tables.
    public struct Interface: Sendable, Equatable {
        /// The interface's name (`AuthRemoteAPI`).
        public var name: String
        /// Every method an implementation must have (with its signature when declared).
        public var methods: [Function]
        /// The properties an implementation must have.
        public var properties: [Property]
    }

    /// A plugin module (`factoryhost.networking`).
    public struct Module: Sendable, Equatable {
        /// The module's name (`factoryhost.networking`).
        public var name: String
        /// Its exported classes.
        public var classes: [Class]
        /// Its exported interfaces.
        public var interfaces: [Interface]
        /// Its functions.
        public var functions: [Function]
    }

    /// The globals of the configuration DSL.
    public static let scriptGlobals = ["configuration", "container", "describe", "implement", "interface", "provider",
                                       "register", "resolve", "scope", "types", "value", "values"]
    /// The globals the test runner adds in spec files.
    public static let specGlobals = ["after_all", "after_each", "before_all", "before_each", "describe", "expect",
                                     "finally", "it", "override", "pending", "spy", "stub"]

    /// The installed plugins' modules, sorted by name.
    public var modules: [Module]

    /// Reads what `host` offers scripts (installing its deferred plugins).
    ///
    /// - Throws: what installing the host's deferred plugins threw (see ``FactoryHost/installPendingPlugins()``).
    public init(host: FactoryHost) throws {
        let pluginModules = try host.pluginModules()          // installs the deferred plugins first
        let types = host.types
        modules = pluginModules.map { module in
            var result = Module(name: module.name, classes: [], interfaces: [], functions: [])
            for entry in module.entries {
                switch entry.kind {
                case .class:
                    if let members = types.members(ofClass: entry.name) { result.classes.append(Self.describe(members)) }
                case .interface:
                    result.interfaces.append(Self.describe(interface: entry.name, in: types))
                case .function:
                    result.functions.append(Function(name: entry.name, parameters: nil, result: nil))
                }
            }
            return result
        }
    }

    private static func describe(_ members: LuaClassMembers) -> Class {
        // Parameters take their names from the declaration where it gives them, else from their types.
        func named(_ member: String, _ types: [String]) -> [Parameter] {
            guard let names = members.parameterNames[member], names.count == types.count else { return parameters(ofTypes: types) }
            return zip(names, types).map { Parameter(name: LuaIdentifier.isKeyword($0) ? $0 + "_" : $0, type: $1) }
        }
        let constructor: Function? = members.hasConstructor
            ? Function(name: "new", parameters: members.constructorArguments.map { named("new", $0) }, result: members.name,
                       summary: members.summaries["new"])
            : nil
        return Class(
            name: members.name, constructor: constructor,
            classFunctions: members.classFunctions.map { Function(name: $0, parameters: nil, result: nil) },
            methods: members.methods.map { method in
                let signature = members.signatures[method]
                return Function(name: method, parameters: signature.map { named(method, $0.arguments) }, result: signature?.result,
                                summary: members.summaries[method])
            },
            properties: members.properties.map {
                Property(name: $0, type: members.propertyTypes[$0] ?? "value", settable: members.settableProperties.contains($0),
                         summary: members.summaries[$0])
            })
    }

    private static func describe(interface name: String, in types: TypeCatalog) -> Interface {
        let shape = types.shape(ofInterface: name)
        let methods = (types.requiredMethods(ofInterface: name) ?? []).map { method -> Function in
            guard let signature = shape?.methods.first(where: { $0.name == method }) else {
                return Function(name: method, parameters: nil, result: nil)
            }
            return Function(name: method, parameters: signature.parameters.map { Parameter(name: $0.name, type: $0.type) },
                            result: signature.result)
        }
        let properties = (shape?.properties ?? []).map { Property(name: $0.name, type: $0.type, settable: false) }
        return Interface(name: name, methods: methods, properties: properties)
    }

    /// Names for parameters known only by their types: the type's name in
    /// lower camel case (`HTTPSession` → `httpSession`), `value` for a Lua
    /// type, numbered when one repeats.
    static func parameters(ofTypes types: [String]) -> [Parameter] {
        if types == ["table of named arguments"] { return [Parameter(name: "arguments", type: "table")] }
        var used: [String: Int] = [:]
        let bases = types.map { parameterName(forType: $0) }
        return zip(bases, types).map { base, type in
            let repeated = bases.filter { $0 == base }.count > 1
            used[base, default: 0] += 1
            return Parameter(name: repeated ? "\(base)\(used[base] ?? 1)" : base, type: type)
        }
    }

    private static func parameterName(forType type: String) -> String {
        let letters = Array(type.filter { $0.isLetter || $0.isNumber || $0 == "_" })
        guard let first = letters.first, first.isUppercase else { return "value" }
        // Lower the leading capitals, all but the last of a run followed by lower case (HTTPSession → httpSession).
        var run = letters.prefix { $0.isUppercase }.count
        if run > 1 && run < letters.count { run -= 1 }
        let name = String(letters.prefix(run)).lowercased() + String(letters.dropFirst(run))
        return LuaIdentifier.isKeyword(name) ? name + "_" : name
    }
}

/// Lua's reserved words, for names written into generated Lua.
enum LuaIdentifier {
    static let keywords: Set<String> = ["and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if",
                                        "in", "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while"]
    static func isKeyword(_ name: String) -> Bool { keywords.contains(name) }
    /// A name usable as `t.name` and `function t:name()`.
    static func isPlain(_ name: String) -> Bool { isIdentifier(name) && !isKeyword(name) }
}
