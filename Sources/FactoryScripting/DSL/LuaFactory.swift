import FactoryRegistry
import LuaBridge

/// The factory of a script registration: resolves the declared
/// dependencies, calls the script's `make(deps, args)`, and checks what it
/// returns against the registered type.
///
/// A Lua state belongs to one thread, so a Lua factory resolved on any other
/// thread than the host's fails with a clear error instead of racing.
final class LuaFactory: @unchecked Sendable {
    struct Dependency {
        /// The key in the `deps` table the make function receives.
        let label: LuaValue
        let key: ScriptKey
        let dependency: FactoryRegistry.Dependency
    }

    private weak var host: FactoryHost?
    private let make: LuaFunction
    private let key: String
    private let resultType: ScriptType
    private let dependencies: [Dependency]
    private let argumentTypes: [ScriptType]
    /// Filled in by the registration that owns this factory.
    var origin = Origin(file: "?", line: 0)
    var argumentNames: [String] = []

    init(host: FactoryHost, make: LuaFunction, key: String, resultType: ScriptType,
         dependencies: [Dependency], arguments: [ScriptType]) {
        self.host = host
        self.make = make
        self.key = key
        self.resultType = resultType
        self.dependencies = dependencies
        self.argumentTypes = arguments
    }

    /// As the registry sees it.
    var registryFactory: UntypedFactory {
        UntypedFactory { [self] resolver, arguments in try build(resolver, arguments) }
    }

    private func build(_ resolver: Resolver, _ arguments: Arguments) throws -> Any {
        guard let host else {
            throw RegistryError(.factoryFailed, "the factory for \(key) was called after its host was released",
                                origin: origin)
        }
        let lua = host.lua
        try lua.checkOwnerThread("the Lua factory for \(key) (\(origin))")
        let deps = try lua.newTable(hashCapacity: dependencies.count)
        for dependency in dependencies {
            let value: LuaValue
            switch dependency.dependency.kind {
            case .instance:
                value = try host.types.toLua(resolver.resolveAny(dependency.key.serviceKey), in: lua)
            case .provider:
                value = .function(try host.providerFunction(resolver.anyProvider(dependency.key.serviceKey),
                                                            name: dependency.key.description))
            }
            try deps.rawSet(dependency.label, value)
        }
        let args = try lua.newTable(hashCapacity: arguments.count)
        for (name, value) in zip(argumentNames, arguments.values) {
            try args.rawSet(LuaValue(name), host.types.toLua(value, in: lua))
        }
        let results: [LuaValue]
        do {
            results = try make.call(.table(deps), .table(args))
        } catch let error as LuaError {
            // The message says where in the script; the outer traceback shows the resolve.
            throw RegistryError(.factoryFailed, "the factory for \(key) failed: \(error.message)",
                                details: ["registered at \(origin)"], origin: origin)
        }
        let result = results.first ?? .nil
        do {
            return try resultType.fromLua(result, lua)
        } catch let error as LuaError where error.kind == .typeMismatch {
            let what = results.isEmpty ? "nothing" : describeValue(result)
            let problem = resultType.kind == .interface && error.message.hasPrefix("table does not implement")
                ? "a table that does not implement \(resultType.name): "
                    + error.message.dropFirst("table does not implement \(resultType.name): ".count)
                : "\(what), expected \(resultType.name)"
            throw RegistryError(.wrongType, "the factory for \(key) returned \(problem)",
                                details: ["registered at \(origin)"], origin: origin)
        }
    }
}

/// A value as an error message shows it: its type, and short scalars too.
func describeValue(_ value: LuaValue) -> String {
    switch value {
    case .nil: return "nil"
    case .boolean(let b): return "boolean \(b)"
    case .integer(let i): return "integer \(i)"
    case .number(let n): return "float \(n)"
    case .string(let s):
        let text = s.description
        return "string \"\(text.count > 40 ? text.prefix(37) + "..." : text)\""
    case .userdata(let u): return "a \(u.typeName)"
    default: return "a \(value.typeName)"
    }
}
