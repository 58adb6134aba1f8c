import FactoryRegistry
import LuaBridge

/// The factory of a script registration: resolves the declared
/// dependencies, calls the script's `make(deps, args)`, and checks what it
/// returns against the registered type.
///
/// A Lua state belongs to one thread, so a Lua factory resolved on any other
/// thread than the host's fails with a clear error instead of racing. `@unchecked Sendable`: `prepared` and each
/// dependency's `cacheSlot` are touched only in `build`, after the owner-thread check; `changes` is set before a
/// remade factory is returned and only read afterwards; `host` is weak and set in init; the rest are lets
/// (`changing` runs on whichever thread makes a plan, and reads only lets).
final class LuaFactory: @unchecked Sendable {
    private weak var host: FactoryHost?
    let make: LuaFunction
    private let key: String
    private let resultType: ScriptType
    /// The dependencies as the registration declares them (the same array,
    /// not a copy), each with its label.
    private let dependencies: [Dependency]
    /// The same, made ready at the first call (a `check` never pays for them).
    private lazy var prepared: [PreparedDependency] = dependencies.map(PreparedDependency.init)

    /// A dependency as `make` receives it, walked on every call (a class:
    /// copying a struct of strings would retain each of them).
    private final class PreparedDependency {
        let key: ServiceKey
        let kind: Dependency.Kind
        /// The key in the `deps` table `make` receives, ready to be set again and again.
        let label: LuaFieldName
        /// Its slot in the host's object cache (0: none yet): a singleton
        /// dependency reaches `make` as the same userdata call after call.
        var cacheSlot = 0

        init(_ dependency: Dependency) {
            key = dependency.key
            kind = dependency.kind
            label = LuaFieldName(dependency.label ?? dependency.key.description)
        }
    }
    /// The configuration values `make` receives in `deps` (label, value name).
    private let values: [(label: LuaFieldName, name: String)]
    private let declaredValues: [(label: String, name: String)]
    /// The registration's parameters, which `make` receives in `deps` too,
    /// by name (a configuration extending this one may change them alone).
    let parameters: [(name: String, label: LuaFieldName, value: LuaValue)]
    /// The names of the runtime arguments, in the registration's order.
    private let argumentNames: [String]
    private let argumentLabels: [LuaFieldName]
    private let origin: Origin

    init(host: FactoryHost, make: LuaFunction, key: String, resultType: ScriptType,
         dependencies: [Dependency], values: [(label: String, name: String)] = [],
         parameters: [(name: String, value: LuaValue)] = [], argumentNames: [String], origin: Origin) {
        self.values = values.map { (LuaFieldName($0.label), $0.name) }
        self.declaredValues = values
        self.parameters = parameters.map { ($0.name, LuaFieldName($0.name), $0.value) }
        self.host = host
        self.make = make
        self.key = key
        self.resultType = resultType
        self.dependencies = dependencies
        self.argumentNames = argumentNames
        self.argumentLabels = argumentNames.map(LuaFieldName.init)
        self.origin = origin
    }

    /// As the registry sees it.
    var registryFactory: UntypedFactory {
        // Results are checked here (build reads them as the registered type).
        UntypedFactory(checksResults: true, source: self) { [self] resolver, arguments in try build(resolver, arguments) }
    }

    /// Where parameters were changed by configurations extending the
    /// registration's, for messages: `parameter stores changed at t.lua:9`.
    private var changes: [(name: String, origin: Origin)] = []
    private var changeDetails: [String] {
        changes.map { "parameter \($0.name) changed at \($0.origin)" }
    }

    /// The same factory with some parameters changed at `place` (checked by
    /// the registry first: each is one of this factory's, of the same kind).
    func changing(_ changed: [(name: String, value: LuaValue)], at place: Origin) throws -> LuaFactory {
        guard let host else {
            throw RegistryError(.factoryFailed, "the factory for \(key) was changed after its host was released", origin: origin)
        }
        let merged = parameters.map { parameter in
            (name: parameter.name, value: changed.last { $0.name == parameter.name }?.value ?? parameter.value)
        }
        let remade = LuaFactory(host: host, make: make, key: key, resultType: resultType, dependencies: dependencies,
                                values: declaredValues, parameters: merged,
                                argumentNames: argumentNames, origin: origin)
        remade.changes = changes.filter { change in !changed.contains { $0.name == change.name } }
            + changed.map { ($0.name, place) }
        return remade
    }

    private func build(_ resolver: Resolver, _ arguments: Arguments) throws -> Any {
        guard let host else {
            throw RegistryError(.factoryFailed, "the factory for \(key) was called after its host was released",
                                origin: origin)
        }
        let lua = host.lua
        try lua.checkOwnerThread("the Lua factory for \(key) (\(origin))")
        let types = host.storedTypes
        // While make runs, `c:resolve` through a captured container goes to
        // Swift even for a built singleton, which is checked against what
        // this factory declares (a remembered answer would skip that).
        let memoizing = lua.memoizing
        if memoizing { lua.memoizing = false }
        host.runningLuaFactories += 1
        defer {
            host.runningLuaFactories -= 1
            if memoizing { lua.memoizing = true }
        }
        do {
            let built = try make.call(pushing: { frame in
                frame.pushNewTable(hashCapacity: Int32(dependencies.count + values.count))
                try frame.setMetatable(ofTableAt: -1, to: host.dependenciesMetatable())
                if !values.isEmpty { try pushValues(to: frame, from: host) }
                if !parameters.isEmpty { try pushParameters(to: frame) }
                for dependency in prepared {
                    switch dependency.kind {
                    case .instance:
                        let value = try resolver.resolveAny(dependency.key)
                        if dependency.cacheSlot == 0 { dependency.cacheSlot = try host.objectCache.newSlot() }
                        try types.push(value, to: frame, cache: host.objectCache, slot: dependency.cacheSlot)
                    case .provider:
                        try frame.push(.function(host.providerFunction(resolver.anyProvider(dependency.key),
                                                                       name: dependency.key.description)))
                    }
                    frame.setField(dependency.label, inTableAt: -2)
                }
                if argumentNames.isEmpty { return 1 }          // make(d); `a` is nil, no table made
                frame.pushNewTable(hashCapacity: Int32(arguments.count))
                for (label, value) in zip(argumentLabels, arguments.values) {
                    try types.push(value, to: frame)
                    frame.setField(label, inTableAt: -2)
                }
                return 2
            }, reading: { frame, index in
                do {
                    let result = try resultType.fromFrame(frame, index)
                    types.rememberBuilt(result, at: index, in: frame)
                    return result
                } catch let error as LuaError where error.kind == .typeMismatch {
                    throw wrongResult(frame.value(index), error)
                }
            })
            if let observe = host.onScriptBuild, let container = try? resolver.container, let registration = try? resolver.registration {
                observe(container, registration)
            }
            return built
        } catch let error as LuaError {
            // The message says where in the script; the outer traceback shows the resolve.
            // A value that was not text stays reachable: scripts get it as `err.cause`.
            // Lua's "C stack overflow" (about 200 nested calls between Lua and C) says nothing of why.
            let message = error.message == "C stack overflow" && host.runningLuaFactories > 1
                ? "C stack overflow: factories nest too deeply — each provider called or resolve made inside a make "
                    + "runs the next make inside it, and Lua allows about 200 such calls (declare instance dependencies "
                    + "instead, or call the providers later)"
                : error.message
            throw RegistryError(.factoryFailed, "the factory for \(key) failed: \(message)",
                                details: ["registered at \(origin)"] + changeDetails, origin: origin, causeID: error.errorValueID)
        }
    }

    /// The configuration values `make` receives, into the deps table on top
    /// (apart: a deep graph's every level pays for the frame of `build`).
    @inline(never)
    private func pushValues(to frame: LuaFrame, from host: FactoryHost) throws {
        for value in values {
            try frame.push(host.values.value(value.name))
            frame.setField(value.label, inTableAt: -2)
        }
    }

    /// The parameters `make` receives, into the deps table on top.
    @inline(never)
    private func pushParameters(to frame: LuaFrame) throws {
        for parameter in parameters {
            try frame.push(parameter.value)
            frame.setField(parameter.label, inTableAt: -2)
        }
    }

    private func wrongResult(_ result: LuaValue, _ error: LuaError) -> RegistryError {
        let problem: String
        if case .notImplementing(let interface, let detail)? = error.problem {
            problem = "a table that does not implement \(interface): \(detail)"
        } else {
            problem = "\(result.isNil ? "nothing" : describeValue(result)), expected \(resultType.name)"
        }
        return RegistryError(.wrongType, "the factory for \(key) returned \(problem)",
                             details: ["registered at \(origin)"] + changeDetails, origin: origin)
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

extension FactoryHost {
    /// The metatable of every `deps` table `make` receives: reading a name the
    /// registration did not declare (`d.http`) is an error naming the line and
    /// what was declared, not a nil that fails later as "attempt to index a nil
    /// value" (or never). Hits never reach it; `pairs(d)` sees the declared
    /// names only; the metatable is hidden.
    func dependenciesMetatable() throws -> LuaTable {
        if let storedDependenciesMetatable { return storedDependenciesMetatable }
        let index = try lua.frameFunction("deps") { frame in
            guard case .string(let name) = frame.value(2), case .table(let deps) = frame.value(1) else { return 0 }
            var declared: [String] = []
            try deps.forEachPair { key, _ in
                if case .string(let text) = key { declared.append(text.description) }
            }
            declared.sort()
            let shown = name.literal.count > 64 ? String(name.literal.prefix(61)) + "...\"" : name.literal
            let suggestion = (try? name.string()).map { NameSuggestion.didYouMean($0, among: declared) } ?? ""
            throw LuaError(.runtime, "make's deps have no \(shown)\(suggestion) "
                           + (declared.isEmpty ? "(its registration declares none: deps = { \(shown.dropFirst().dropLast()) = \"Type\" })"
                                               : "(declared: \(declared.joined(separator: ", ")))"))
        }
        let metatable = try lua.newTable(hashCapacity: 2)
        try metatable.rawSet("__index", .function(index))
        try metatable.rawSet("__metatable", .boolean(false))
        storedDependenciesMetatable = metatable
        return metatable
    }
}
