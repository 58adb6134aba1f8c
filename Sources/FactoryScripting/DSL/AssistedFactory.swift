import FactoryRegistry
import LuaBridge

/// The factory of an assisted registration, generated from an exported
/// interface instead of written in Lua (Typhoon's factory provider, Guice's
/// FactoryModuleBuilder):
///
/// ```lua
/// register "PizzaFactory" { assisted = { pizza = "Pizza", smallPizza = "Pizza#small", … } }
/// ```
///
/// What it builds implements the interface: each property holds its
/// injected dependency, and each method resolves its registration with the
/// method's arguments, passed by the names the interface gives them. It is
/// read-only: a script cannot swap a method behind Swift's back.
///
/// Sendable as the registry needs its factories to be; its two cached
/// functions are set and read only in `build`, which first checks it runs
/// on the Lua state's own thread (as ``LuaFactory`` does); `host` is weak and
/// set only in init.
final class AssistedFactory: @unchecked Sendable {
    /// An interface method, and the registration it makes.
    struct Method {
        let name: String
        let parameters: [String]
        /// `PizzaFactory.smallPizza(ingredients: table)`, for messages.
        let signature: String
        let key: ServiceKey
        let keyText: String
    }

    private weak var host: FactoryHost?
    private let interface: String
    /// `PizzaFactory` or `PizzaFactory#name`.
    private let keyText: String
    private let resultType: ScriptType
    /// The properties, each with its dependency.
    private let properties: [(name: String, key: ServiceKey)]
    private let methods: [Method]
    private let origin: Origin
    /// Shared by every factory this registration builds.
    private var readOnly: LuaFunction?
    private var describe: LuaFunction?

    init(host: FactoryHost, interface: String, keyText: String, resultType: ScriptType, properties: [(name: String, key: ServiceKey)],
         methods: [Method], origin: Origin) {
        self.host = host
        self.interface = interface
        self.keyText = keyText
        self.resultType = resultType
        self.properties = properties
        self.methods = methods
        self.origin = origin
    }

    /// As the registry sees it.
    var registryFactory: UntypedFactory {
        UntypedFactory(checksResults: true) { [self] resolver, _ in try build(resolver) }
    }

    private func build(_ resolver: Resolver) throws -> Any {
        guard let host else {
            throw RegistryError(.factoryFailed, "the assisted factory \(interface) was called after its host was released",
                                origin: origin)
        }
        let lua = host.lua
        try lua.checkOwnerThread("the assisted factory \(interface) (\(origin))")
        do {
            let members = try lua.newTable(hashCapacity: properties.count + methods.count)
            for property in properties {
                try members.rawSet(LuaValue(property.name), host.types.toLua(try resolver.resolveAny(property.key), in: lua))
            }
            // Each factory's methods answer only to it (`other:method(…)` is refused).
            host.assistedInstanceCount += 1
            let identity = host.assistedInstanceCount
            for method in methods {
                try members.rawSet(LuaValue(method.name),
                                   .function(methodFunction(method, provider: try resolver.anyProvider(method.key),
                                                            identity: identity, host: host)))
            }
            let metatable = try lua.newTable(hashCapacity: 4)
            try metatable.rawSet("__index", .table(members))
            try metatable.rawSet("__newindex", .function(try sharedReadOnly(lua)))
            try metatable.rawSet("__tostring", .function(try sharedDescribe(lua)))
            try metatable.rawSet("__metatable", .boolean(false))
            let factory = try lua.newTable()
            try lua.setMetatable(of: factory, to: metatable)
            try instances(host).rawSet(.table(factory), .integer(identity))
            // Swift calls `members`; scripts hold `factory`, whose raw fields it never reads.
            try lua.presentImplementation(members, as: factory)
            let built = try resultType.fromLua(.table(factory), lua)
            if let observe = host.onScriptBuild, let container = try? resolver.container, let registration = try? resolver.registration {
                observe(container, registration)
            }
            return built
        } catch let error as LuaError {
            throw RegistryError(.factoryFailed, "the assisted factory \(interface) failed: \(error.message)",
                                details: ["registered at \(origin)"], origin: origin, causeID: error.errorValueID)
        }
    }

    /// `factory:method(a, b)`: resolves the method's registration with
    /// `{ first = a, second = b }`.
    private func methodFunction(_ method: Method, provider: Provider<Any>, identity: Int, host: FactoryHost) throws -> LuaFunction {
        let expected = Int32(method.parameters.count)
        return try host.lua.frameFunction(method.signature) { [unowned host] frame in
            guard case .table = frame.value(1), case .integer(identity) = try host.assistedInstances?.rawGet(frame.value(1)) else {
                throw LuaError(.typeMismatch, "\(method.signature) is a method of the factory it came from: call it as factory:\(method.name)(…)")
            }
            var given = frame.count - 1                  // trailing nils are absent arguments, as in Lua
            while given > 0, frame.value(given + 1).isNil { given -= 1 }
            guard given <= expected else {
                throw LuaError(.typeMismatch, "\(method.signature) takes \(expected) argument\(expected == 1 ? "" : "s"), got \(given)")
            }
            let named = try host.lua.newTable(hashCapacity: method.parameters.count)
            for (offset, parameter) in method.parameters.enumerated() {
                try named.rawSet(LuaValue(parameter), frame.value(Int32(offset) + 2))
            }
            let arguments: Arguments
            do {
                arguments = try host.runtimeArguments(.table(named), for: provider.registration, key: method.keyText)
            } catch let error as LuaError where error.kind == .typeMismatch {
                throw LuaError(.typeMismatch, "\(method.signature): \(error.message)")
            }
            let made: Any
            do {
                made = try host.outsideFactoryIfFinalizer(frame) { try ScriptScopes.stacked { try provider.call(arguments: arguments) } }
            } catch let error as RegistryError where error.kind == .containerClosed {
                throw LuaError(.runtime, "\(method.signature): the container that made this \(self.interface) is gone (closed or released); "
                               + "keep it while its factories are in use")
            } catch let error as RegistryError {
                // Which method made what failed: the path starts at its registration.
                throw RegistryError(error.kind, "\(method.signature): \(error.message)", configuration: error.configuration,
                                    path: error.path, details: error.details, origin: error.origin, causeID: error.causeID)
            }
            try host.types.push(made, to: frame)
            return 1
        }
    }

    /// The host's table of built factories, weak-keyed (made once).
    private func instances(_ host: FactoryHost) throws -> LuaTable {
        if let made = host.assistedInstances { return made }
        let table = try host.lua.newTable(), weakKeys = try host.lua.newTable(hashCapacity: 1)
        try weakKeys.rawSet("__mode", "k")
        try host.lua.setMetatable(of: table, to: weakKeys)
        host.assistedInstances = table
        return table
    }

    private func sharedReadOnly(_ lua: LuaState) throws -> LuaFunction {
        if let readOnly { return readOnly }
        let made = try lua.frameFunction("\(interface) (assisted)") { [interface] frame in
            let key = frame.value(2)
            throw LuaError(.runtime, "\(interface) is generated from its interface and read-only: cannot set \(describeKey(key))")
        }
        readOnly = made
        return made
    }

    private func sharedDescribe(_ lua: LuaState) throws -> LuaFunction {
        if let describe { return describe }
        let made = try lua.frameFunction("\(interface) (assisted)") { [keyText, origin] frame in
            frame.push("\(keyText) (assisted factory, \(origin))")
            return 1
        }
        describe = made
        return made
    }
}
