import FactoryhostSupport
import FactoryRegistry
import LuaBridge

/// Reads the body of `register "Type" { … }`.
struct RegistrationParser {
    /// The fields of a registration's body, in the order they are read.
    enum Field: String, CaseIterable {
        case args, assisted, deps, eager, into, key, make, name, override, params, scope
    }
    private static let allFields = Field.allCases
    static let fields = allFields.map(\.rawValue)
    let catalog: TypeCatalog
    let keyText: String
    let origin: Origin
    /// The DSL word that declared it, as messages name it: `register`, or a test's `override`.
    var verb = "register"
    /// Whether messages repeat the registration's place after its key. Off:
    /// a parse error is raised at the `register` call, whose place Lua puts
    /// first (`app.lua:5: register "X": …`), and check prints it first too.
    var showsOrigin = false
    /// In a dry run, dependencies whose key is wrong (an unknown type, a
    /// typo) are left out and kept here, each with the key text as written,
    /// so `check` reports every one, at the line naming it, and goes on
    /// with the rest of the registration (its value dependencies, say).
    let badDependencies = BadDependencies()

    /// How messages name the registration (made only for a message).
    var what: String { "\(verb) \"\(keyText)\"" + (showsOrigin ? " (\(origin))" : "") }

    /// `fields`, made ready once for reading every body.
    private static let fieldNames = fields.map(LuaFieldName.init)

    /// Reads `body`, a table lent in place: nothing in it is converted
    /// that the registration does not keep (a dry run keeps `make` in its
    /// table straight from the stack).
    func parse(body: LuaSlot, host: FactoryHost) throws -> RegistrationSpec {
        // The known fields, read raw; any other entry is an unknown field
        // (looked for only then: converting every key costs more than this).
        try body.withFields(Self.fieldNames) { found in
            if found.present != found.entryCount {
                try body.forEachEntry { field, _ in
                    guard let text = field.text, Self.fields.contains(text) else {
                        let suggestion = field.text.map { NameSuggestion.didYouMean($0, among: Self.fields) } ?? ""
                        throw LuaError(.typeMismatch, "\(what): unknown field \(describeKey(field.value))\(suggestion) (fields: \(Self.fields.joined(separator: ", ")))")
                    }
                }
            }
            return try parse(found, host: host)
        }
    }

    private func parse(_ found: LuaFields, host: FactoryHost) throws -> RegistrationSpec {
        // By the field's position (looking each name up compared strings 21
        // times per registration).
        func slot(_ field: Field) -> LuaSlot { found[Self.allFields.firstIndex(of: field) ?? 0] }
        func value(_ field: Field) -> LuaValue { slot(field).value }
        var name: String? = try field("name", value(.name))
        // `into = "set"` / `into = "map", key = "json"`: a contribution to a collection of the type.
        let into: String? = try field("into", value(.into))
        let mapKey: String? = try field("key", value(.key))
        var contribution: Contribution?
        switch into {
        case nil:
            if mapKey != nil { throw LuaError(.typeMismatch, "\(what): 'key' goes with into = \"map\"") }
        case "set"?:
            if mapKey != nil { throw LuaError(.typeMismatch, "\(what): a set has no keys ('key' goes with into = \"map\")") }
            contribution = .set
            if name == nil && !keyText.contains("#") { name = host.contributionName(at: origin) }   // where it is declared
        case "map"?:
            guard let mapKey, !mapKey.isEmpty else {
                throw LuaError(.typeMismatch, "\(what): a map contribution says its key: into = \"map\", key = \"…\"")
            }
            contribution = .map(key: mapKey)
            if name == nil && !keyText.contains("#") { name = mapKey }
        case let other?:
            throw LuaError(.typeMismatch, "\(what): 'into' is \"set\" or \"map\" (got \"\(other)\")")
        }
        let key = try ScriptKey(parsing: keyText, catalog: catalog, name: name)
        if key.type.isCollection {
            throw LuaError(.typeMismatch, "\(what): a collection is made from contributions — "
                           + "register \"\(key.type.elementName ?? "Type")\" { into = \"\(key.type.name.hasPrefix("{") ? "map\", key = \"…" : "set")\", … }")
        }
        let scopeWord: String? = try field("scope", value(.scope))
        let eager: Bool = try field("eager", value(.eager)) ?? false
        let overrides: Bool = try field("override", value(.override)) ?? false
        // `make` is converted only where a factory keeps it (not in a dry run).
        let make = slot(.make), hasMake = !make.isNil
        if hasMake && make.type != .function { _ = try field("make", make.value) as LuaFunction? }     // its error
        let assisted = value(.assisted)
        if !hasMake && assisted.isNil && !slot(.params).isNil {
            return try parseRefinement(value(.params), key: key, overrides: overrides, host: host) { slot($0).isNil }
        }
        if !hasMake && assisted.isNil {
            throw LuaError(.typeMismatch, "\(what): 'make' (the factory function) is missing"
                           + (catalog.shape(ofInterface: key.type.name) != nil
                              ? " (or generate \(key.type.name) from its interface: assisted = { method = \"Key\", … })" : ""))
        }
        let scope = scopeWord.map(Scope.init(parsing:)) ?? .transient
        if scope == .weak && key.type.kind != .class {
            // Swift would hold a wrapper no one else holds, not the script's value:
            // the weak instance would be gone at once (transient, silently).
            throw LuaError(.typeMismatch, "\(what): the weak scope holds only exported Swift classes, "
                           + "and \(key.type.name) is \(key.type.kind == .interface ? "an interface (a Lua table may implement it)" : "a Lua value"), "
                           + "which Swift cannot hold weakly: use singleton, a declared scope, or transient")
        }
        if eager && scope != .singleton {
            throw LuaError(.typeMismatch, "\(what): only a singleton can be eager (scope is \(scope))")
        }
        if !assisted.isNil {
            let conflicting = [hasMake ? "make" : nil, slot(.args).isNil ? nil : "args", contribution == nil ? nil : "into",
                               slot(.params).isNil ? nil : "params"]
            if let field = conflicting.compactMap({ $0 }).first {
                throw LuaError(.typeMismatch, "\(what): an assisted factory is generated from its interface, so it has no '\(field)'")
            }
            let (dependencies, factory) = try parseAssisted(assisted, key: key, deps: value(.deps), host: host)
            return RegistrationSpec(Registration(key: key.serviceKey, scope: scope, eager: eager, dependencies: dependencies,
                                                 arguments: [], origin: origin, overrides: overrides, factory: factory),
                                    key: key.description)
        }
        guard hasMake else { throw LuaError(.typeMismatch, "\(what): 'make' (the factory function) is missing") }
        let (dependencies, valueDependencies) = try parseDependencies(slot(.deps), host: host)
        let parameters = try parseParameters(value(.params), host: host)
        for parameter in parameters {
            if let clash = dependencies.first(where: { $0.label == parameter.name })?.label ?? valueDependencies.first(where: { $0.label == parameter.name })?.label {
                throw LuaError(.typeMismatch, "\(what): '\(clash)' is both a parameter and a dependency (make reads both from its first argument)")
            }
        }
        let arguments = try parseArguments(value(.args))
        if contribution != nil && !arguments.isEmpty {
            throw LuaError(.typeMismatch, "\(what): a contribution takes no runtime arguments (its collection is built whole)")
        }
        // A dry run (check, graph) never builds: its registrations share one
        // factory that says so (a factory held ~400 bytes per registration,
        // a quarter of check's memory). `make` is kept all the same, in one
        // table: collected, it would run its captured values' finalizers
        // mid-script, and weak tables would see what `run` does not.
        if let session = host.checkSession {
            try session.keep(make)
            if !parameters.isEmpty { try session.keep(slot(.params)) }
        }
        let keyDescription = key.description
        let factory = try host.isDryRun ? FactoryHost.dryRunFactory
            : LuaFactory(host: host, make: make.value.function(), key: keyDescription, resultType: key.type,
                         dependencies: dependencies, values: valueDependencies,
                         parameters: parameters.map { ($0.name, $0.value) },
                         argumentNames: arguments.map(\.0), origin: origin).registryFactory
        for use in valueDependencies { host.valueUses.append((use.name, keyDescription, origin)) }
        var registration = Registration(
            key: key.serviceKey, scope: scope, eager: eager, dependencies: dependencies,
            arguments: arguments.map { ArgumentSpec($0.0, $0.1.serviceType, acceptsEveryType: $0.1.kind == .primitive && $0.1.name == "any") },
            origin: origin,
            overrides: overrides, factory: factory)
        registration.contribution = contribution
        if !parameters.isEmpty { registration.parameters = parameters.map { RegistrationParameter($0.name, type: $0.type) } }
        if !valueDependencies.isEmpty { registration.values = valueDependencies.map { ValueDependency(label: $0.label, name: $0.name) } }
        return RegistrationSpec(registration, key: keyDescription)
    }

    /// `params = { stores = function() … end }`: the parameters `make`
    /// reads from its first argument, by name, sorted.
    private func parseParameters(_ value: LuaValue, host: FactoryHost) throws -> [(name: String, type: String, value: LuaValue)] {
        if value.isNil { return [] }
        guard case .table(let table) = value else {
            throw LuaError(.typeMismatch, "\(what): 'params' must be a table of names to values (got \(value.typeName))")
        }
        var result: [(name: String, type: String, value: LuaValue)] = []
        for (name, parameter) in try table.pairs() {
            guard case .string(let text) = name, isIdentifier(text.description) else {
                throw LuaError(.typeMismatch, "\(what): a parameter's name is an identifier (got \(describeKey(name)))")
            }
            let type: String
            switch parameter {
            case .integer, .number: type = "number"
            case .function where try host.valueReferences?.rawGet(parameter).isNil == false,
                 .userdata(_) where parameter.typeName == ProviderMarker.luaTypeName:
                // Declarations, not values: make would get the declaration itself.
                throw LuaError(.typeMismatch, "\(what): parameter '\(text)' is a \(parameter.typeName == ProviderMarker.luaTypeName ? "provider" : "configuration value") "
                               + "declaration, which belongs in deps (a parameter is a plain value)")
            default: type = parameter.typeName
            }
            result.append((text.description, type, parameter))
        }
        return result.sorted { $0.name < $1.name }
    }

    /// `register "Key" { override = true, params = { … } }` without `make`:
    /// the inherited registration with these parameters changed, the rest
    /// (factory, scope, dependencies, arguments) as it was. The registry
    /// checks each parameter is one it has, of the same kind.
    private func parseRefinement(_ params: LuaValue, key: ScriptKey, overrides: Bool, host: FactoryHost,
                                 absent: (Field) -> Bool) throws -> RegistrationSpec {
        guard overrides else {
            throw LuaError(.typeMismatch, "\(what): 'make' (the factory function) is missing "
                           + "(or, in a configuration that extends one registering it, say override = true to change only its params)")
        }
        let kept: [Field] = [.args, .deps, .eager, .into, .key, .scope]
        if let stated = kept.first(where: { !absent($0) }) {
            throw LuaError(.typeMismatch, "\(what): changing only parameters keeps the inherited registration's '\(stated.rawValue)' "
                           + "(give make to replace the registration whole)")
        }
        let changed = try parseParameters(params, host: host)
        guard !changed.isEmpty else {
            throw LuaError(.typeMismatch, "\(what): 'params' changes no parameter (a parameter whose value is nil is no parameter)")
        }
        try host.checkSession?.keep(params)
        // @unchecked Sendable: immutable; `remake` may run on any thread that makes a plan, but only copies these
        // (retain/release) into a new LuaFactory — they are pushed to Lua in its `build`, after the owner-thread check.
        final class Values: @unchecked Sendable {
            let values: [(name: String, value: LuaValue)]
            init(_ values: [(name: String, value: LuaValue)]) { self.values = values }
        }
        let values = Values(changed.map { ($0.name, $0.value) })
        let dryRun = host.isDryRun, keyDescription = key.description, place = origin
        var registration = Registration(key: key.serviceKey, origin: origin, overrides: true, factory: FactoryHost.dryRunFactory)
        registration.refinement = Refinement(parameters: changed.map { RegistrationParameter($0.name, type: $0.type) }) { inherited in
            if dryRun { return inherited }
            guard let source = (inherited as? UntypedFactory)?.source as? LuaFactory else {
                throw RegistryError(.invalidRegistration, "\(keyDescription)'s factory is not a script's, so its parameters cannot be changed")
            }
            return try source.changing(values.values, at: place).registryFactory
        }
        return RegistrationSpec(registration, key: keyDescription)
    }

    /// `assisted = { smallPizza = "Pizza#small", … }` on a registration of
    /// an interface that declares its methods' signatures: each method makes
    /// the registration it names, with the method's arguments by name, and
    /// each property is an injected dependency — of the property's type, or
    /// the key `deps` gives it (`deps = { creditService = "CreditService#gold" }`).
    private func parseAssisted(_ value: LuaValue, key: ScriptKey, deps: LuaValue,
                               host: FactoryHost) throws -> ([Dependency], UntypedFactory) {
        let interface = key.type.name
        guard key.type.kind == .interface, let shape = catalog.shape(ofInterface: interface) else {
            let why = key.type.kind == .interface
                ? "\(interface) does not declare its methods' signatures (an exported interface with .method(…) does)"
                : "\(interface) is \(key.type.kind == .class ? "a class" : "not an interface")"
            throw LuaError(.typeMismatch, "\(what): 'assisted' generates an implementation of an interface, and \(why)")
        }
        guard case .table(let table) = value else {
            throw LuaError(.typeMismatch, "\(what): 'assisted' must be a table of methods to registration keys "
                           + "({ \(shape.methods.first?.name ?? "method") = \"Key\" }, got \(value.typeName))")
        }
        let methodNames = shape.methods.map(\.name)
        var targets: [String: String] = [:]
        for (name, target) in try table.pairs() {
            guard case .string(let nameText) = name, methodNames.contains(nameText.description) else {
                var suggestion = ""
                if case .string(let text) = name { suggestion = NameSuggestion.didYouMean(text.description, among: methodNames) }
                throw LuaError(.typeMismatch, "\(what): \(interface) has no method \(describeKey(name))\(suggestion) "
                               + "(methods: \(methodNames.joined(separator: ", ")))")
            }
            guard case .string(let targetText) = target else {
                throw LuaError(.typeMismatch, "\(what): assisted method '\(nameText)' names the registration it makes "
                               + "(a key such as \"\(shape.methods.first { $0.name == nameText.description }?.result ?? "Type")\"), "
                               + "got \(target.typeName)" + (target.typeName == "function"
                                    ? " (a factory written in Lua is make = function(d) return implement(\"\(interface)\", { … }) end)" : ""))
            }
            targets[nameText.description] = targetText.description
        }
        let unmapped = methodNames.filter { targets[$0] == nil }
        guard unmapped.isEmpty else {
            throw LuaError(.typeMismatch, "\(what): assisted says what each method of \(interface) makes, and "
                           + "\(unmapped.joined(separator: ", ")) \(unmapped.count == 1 ? "is" : "are") missing")
        }
        // The properties: by type, or as deps redirects them.
        var propertyKeys: [String: ScriptKey] = [:]
        for property in shape.properties {
            propertyKeys[property.name] = try ScriptKey(parsing: property.type, catalog: catalog)
        }
        if case .table(let given) = deps {
            for (label, entry) in try given.pairs() {
                guard case .string(let labelText) = label, let property = shape.properties.first(where: { $0.name == labelText.description }) else {
                    throw LuaError(.typeMismatch, "\(what): in an assisted factory, deps name \(interface)'s properties, and it has no "
                                   + "property \(describeKey(label)) (properties: \(shape.properties.isEmpty ? "none" : shape.properties.map(\.name).joined(separator: ", ")))")
                }
                guard case .string(let keyText) = entry else {
                    let isValue = if case .function = entry, try host.valueReferences?.rawGet(entry).isNil == false { true } else { false }
                    throw LuaError(.typeMismatch, "\(what): property '\(property.name)' is injected from a registration key (got "
                                   + (isValue ? "a configuration value, which an assisted factory's properties cannot be" : entry.typeName) + ")")
                }
                let propertyKey: ScriptKey
                do {
                    propertyKey = try ScriptKey(parsing: keyText.description, catalog: catalog)
                } catch let error as LuaError {
                    throw LuaError(.typeMismatch, "\(what): property '\(property.name)': \(error.message)")
                }
                guard property.type == "any" || propertyKey.type.name == property.type else {
                    throw LuaError(.typeMismatch, "\(what): property '\(property.name)' of \(interface) is a \(property.type), "
                                   + "and \(propertyKey.description) is a \(propertyKey.type.name)")
                }
                propertyKeys[property.name] = propertyKey
            }
        } else if !deps.isNil {
            throw LuaError(.typeMismatch, "\(what): 'deps' must be a table (got \(deps.typeName))")
        }
        var dependencies: [Dependency] = []
        var properties: [(name: String, key: ServiceKey)] = []
        for property in shape.properties {
            guard let propertyKey = propertyKeys[property.name] else { continue }
            dependencies.append(Dependency(propertyKey.serviceKey, kind: .instance, label: property.name))
            properties.append((property.name, propertyKey.serviceKey))
        }
        var methods: [AssistedFactory.Method] = []
        for method in shape.methods {
            let targetText = targets[method.name] ?? ""
            let target: ScriptKey
            do {
                target = try ScriptKey(parsing: targetText, catalog: catalog)
            } catch let error as LuaError {
                throw LuaError(.typeMismatch, "\(what): assisted method '\(method.name)': \(error.message)")
            }
            let signature = "\(interface).\(method.name)(\(method.parameters.map { "\($0.name): \($0.type)" }.joined(separator: ", ")))"
            guard method.result == "any" || target.type.name == method.result else {
                throw LuaError(.typeMismatch, "\(what): \(signature) returns \(method.result), but "
                               + (target.description == target.type.name ? "it names \(target.type.name)" : "\(target.description) is a \(target.type.name)"))
            }
            var arguments: [ArgumentSpec] = []
            for parameter in method.parameters {
                guard let type = catalog.type(parameter.type) else {
                    throw LuaError(.typeMismatch, "\(what): \(signature): parameter '\(parameter.name)' is a \(parameter.type), "
                                   + "which is no type scripts can name")
                }
                arguments.append(ArgumentSpec(parameter.name, type.serviceType))
            }
            dependencies.append(Dependency(target.serviceKey, kind: .provider, label: method.name, arguments: arguments))
            methods.append(AssistedFactory.Method(name: method.name, parameters: method.parameters.map(\.name), signature: signature,
                                                  key: target.serviceKey, keyText: target.description))
        }
        let factory = host.isDryRun ? FactoryHost.dryRunFactory
            : AssistedFactory(host: host, interface: interface, keyText: key.description, resultType: key.type, properties: properties,
                              methods: methods, origin: origin).registryFactory
        return (dependencies, factory)
    }

    private func field<T: LuaConvertible>(_ name: String, _ value: LuaValue) throws -> T? {
        do {
            return try Optional<T>.fromLua(value)
        } catch let error as LuaError where error.kind == .typeMismatch {
            throw LuaError(.typeMismatch, "\(what): '\(name)' must be a \(T.luaTypeName) (got \(value.typeName))")
        }
    }

    /// `deps = { cache = "Cache", make = provider "Screen", url = value "baseURL" }`
    /// or `deps = { "Cache" }`: the registry's dependencies, and the
    /// configuration values (label, value name).
    private func parseDependencies(_ table: LuaSlot, host: FactoryHost) throws -> ([Dependency], [(label: String, name: String)]) {
        if table.isNil { return ([], []) }
        guard table.type == .table else {
            throw LuaError(.typeMismatch, "\(what): 'deps' must be a table (got \(table.value.typeName))")
        }
        var result: [Dependency] = []
        var values: [(label: String, name: String)] = []
        var bad: [(label: String, message: String, key: String)] = []
        // Read in place: converting each label and key to a LuaValue, and
        // the table to an array of them, was a tenth of `check`'s time.
        try table.forEachEntry { label, entry in
            let kind: Dependency.Kind, keyText: String
            if entry.type == .function, case .string(let name)? = try host.valueReferences?.rawGet(entry.value) {
                guard label.type == .string else {
                    throw LuaError(.typeMismatch, "\(what): a value in deps needs a label: deps = { x = value \"\(name)\" }")
                }
                values.append((try Self.labelText(label, what: what), name.description))
                return
            }
            if let text = entry.text {
                kind = .instance
                keyText = text
            } else if let marker = entry.object(as: ProviderMarker.self) {
                kind = .provider
                keyText = marker.key
            } else {
                throw LuaError(.typeMismatch, "\(what): dependency \(describeKey(label.value)) must be a type name, provider \"Type\" or value \"name\" (got \(entry.value.typeName))")
            }
            let labelText: String
            switch label.type {
            case .string: labelText = try Self.labelText(label, what: what)
            case .number where label.integer != nil: labelText = keyText
            default: throw LuaError(.typeMismatch, "\(what): dependency labels must be names (got \(label.value.typeName))")
            }
            let key: ScriptKey
            do {
                key = try ScriptKey(parsing: keyText, catalog: catalog)
            } catch let error as LuaError {
                bad.append((labelText, "\(what): dependency \(describeKey(LuaValue(labelText))): \(error.message)", keyText))
                return
            }
            result.append(Dependency(key.serviceKey, kind: kind, label: labelText))
        }
        if !bad.isEmpty {
            // Every one, in label order (pairs() order is Lua's hash order, which changes from run to run).
            bad.sort { $0.label < $1.label }
            guard host.isDryRun else {
                throw LuaError(.typeMismatch, bad[0].message + (bad.count == 2 ? " (and 1 more bad dependency)" : bad.count > 2 ? " (and \(bad.count - 1) more bad dependencies)" : ""))
            }
            badDependencies.problems += bad.map { (message: $0.message, key: $0.key) }
        }
        // pairs() order is Lua's hash order: sort for stable graphs and messages.
        result.sort { $0.label ?? "" < $1.label ?? "" }
        values.sort { $0.label < $1.label }
        return (result, values)
    }

    /// A dependency's label: the key of `make`'s argument, so exactly its
    /// bytes — text that is not valid UTF-8 is an error, not repaired into
    /// another key.
    private static func labelText(_ label: LuaSlot, what: String) throws -> String {
        if let text = label.validText {
            try ScriptNames.check(text, what: "\(what): a dependency label")
            return text
        }
        let bytes = (try? label.value.luaString().bytes) ?? []
        throw LuaError(.typeMismatch, "\(what): dependency label \(LuaString(bytes: bytes).literal) is not valid UTF-8")
    }

    /// `args = { user = "User" }` (one, or several in name order) or
    /// `args = { {"radius", "number"}, {"toppings", "table"} }` (in that order).
    private func parseArguments(_ value: LuaValue) throws -> [(String, ScriptType)] {
        if case .nil = value { return [] }
        guard case .table(let table) = value else {
            throw LuaError(.typeMismatch, "\(what): 'args' must be a table (got \(value.typeName))")
        }
        var result: [(String, ScriptType)] = []
        let entries = try table.pairs()
        let ordered = entries.allSatisfy { if case .integer = $0.key { return true } else { return false } }
        if ordered {
            for (_, pair) in entries.sorted(by: { (try? $0.key.int()) ?? 0 < (try? $1.key.int()) ?? 0 }) {
                guard case .table(let pairTable) = pair, case .string(let name) = try pairTable.rawGet(1),
                      case .string(let typeName) = try pairTable.rawGet(2) else {
                    throw LuaError(.typeMismatch, "\(what): each entry of an ordered 'args' list is { \"name\", \"Type\" }")
                }
                result.append((name.description, try argumentType(name.description, typeName.description)))
            }
        } else {
            for (name, typeValue) in entries {
                guard case .string(let nameText) = name, case .string(let typeName) = typeValue else {
                    throw LuaError(.typeMismatch, "\(what): 'args' maps names to type names (got \(name.typeName) = \(typeValue.typeName))")
                }
                result.append((nameText.description, try argumentType(nameText.description, typeName.description)))
            }
            result.sort { $0.0 < $1.0 }
        }
        if result.count > 1 && result.count != Set(result.map(\.0)).count {
            throw LuaError(.typeMismatch, "\(what): an argument name appears twice")
        }
        return result
    }

    private func argumentType(_ name: String, _ typeName: String) throws -> ScriptType {
        try ScriptNames.check(name, what: "\(what): an argument name")
        do {
            return try catalog.type(named: typeName)
        } catch let error as LuaError {
            throw LuaError(.typeMismatch, "\(what): argument '\(name)': \(error.message)")
        }
    }
}

/// A table key as messages show it: `'name'` or `[3]`.
func describeKey(_ key: LuaValue) -> String {
    if case .string(let text) = key { return "'\(shownName(text.description))'" }
    return "[\(key)]"
}

/// A name a script or a file gave, as a message echoes it: its first 60
/// characters (and its length, when longer), no control character raw, on one line.
func shownName(_ name: String) -> String {
    let shown = name.count > 60 ? String(name.prefix(60)) + "… (\(name.utf8.count) bytes)" : name
    return MessageText.oneLine(shown)
}

/// The dependencies a dry run's parse left out because their keys are wrong.
final class BadDependencies {
    var problems: [(message: String, key: String)] = []
}
