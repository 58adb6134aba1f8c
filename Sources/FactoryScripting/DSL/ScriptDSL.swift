import FactoryRegistry
import LuaBridge

// The globals scripts declare configurations with:
//
//   configuration "app" { extends = "base", register "Cache" { … }, … }
//   register "MovieLoader" { scope = …, deps = { … }, args = { … }, make = function(d, a) … end }
//   provider "Screen"                 -- a dependency on a factory closure
//   scope "session"; scope("screen", { within = "session" })
//   container "app"                   -- a new container
//   resolve "MovieLoader"             -- from the --config container
//   implement("AuthRemoteAPI", t)     -- checks t implements the interface
extension FactoryHost {
    func installDSL() throws {
        // `configuration "x"` and `register "K"` return a function that takes
        // the body: the same Swift function each time, bound to the name and
        // where it was written (no Swift closure per declaration).
        let configurationBody = try lua.frameFunction("configuration") { [unowned self] body in
            let name = body.boundString(1) ?? "", origin = body.boundOrigin(at: 2, files: self.originFiles)
            // Reached when its body is applied (`local c = configuration "x"` alone declares nothing).
            self.checkSession?.reached(origin, name: name)
            do {
                try self.applyConfiguration(name, body: body.value(1), origin: origin, frame: body)
            } catch let error as RegistryError {
                // Point at the registration at fault (the second of two duplicates, say), as the error's place.
                let place = error.origin ?? origin, shown = place.description
                throw LuaRaise("\(error)", file: String(shown.dropLast(String(place.line).count + 1)), line: place.line)
            }
            return 0
        }
        try lua.setGlobal("configuration", .function(lua.frameFunction("configuration") { [unowned self] frame in
            try self.installPendingPlugins(for: frame)
            let name = try frame.string(1)
            try ScriptNames.check(name, what: "a configuration name")
            if !frame.isNoneOrNil(2) {
                // configuration("app", { … }) would declare nothing: its body goes to what configuration "app" returns.
                throw frame.argumentError(2, "the body is not a second argument: write configuration \"\(name)\" { register … }, "
                                          + "or configuration(\"\(name)\")({ … })")
            }
            self.checkSession?.started(frame.origin())
            return try self.pushDeclarationBody(configurationBody, in: frame)
        }))
        let registerBody = try lua.frameFunction("register") { [unowned self] body in
            let keyText = body.boundString(1) ?? "", origin = body.boundOrigin(at: 2, files: self.originFiles)
            guard let table = body.slot(1), table.type == .table else {
                throw LuaError(.typeMismatch, "bad argument #1 to 'register \"\(keyText)\"' "
                               + "(table (register \"\(keyText)\" { make = function() … end }) expected, got \(body.typeName(1)))")
            }
            let parser = RegistrationParser(catalog: self.types, keyText: keyText, origin: origin)
            let spec: RegistrationSpec
            // (A dry run only: the dependencies left out, each reported at the line naming it.)
            func recordBadDependencies() {
                for bad in parser.badDependencies.problems {
                    _ = self.recordDeclarationError(LuaError(.typeMismatch, bad.message), at: origin, in: body, namingKey: bad.key)
                }
            }
            do {
                spec = try parser.parse(body: table, host: self)
                recordBadDependencies()
            } catch where self.recordDeclarationError(error, at: origin, in: body) {
                recordBadDependencies()
                // check goes on: a stand-in of the key keeps what depends on it from a second,
                // derived problem (nil when the key itself is bad: the item is skipped).
                try body.reserve(1)
                guard let standIn = self.standIn(keyText: keyText, origin: origin, body: table) else {
                    try body.push(.nil)
                    return 1
                }
                self.specs.append(standIn)
                body.pushObject(standIn, type: RegistrationSpec.luaTypeName)
                return 1
            }
            self.specs.append(spec)
            try body.reserve(1)
            body.pushObject(spec, type: RegistrationSpec.luaTypeName)
            return 1
        }
        try lua.setGlobal("register", .function(lua.frameFunction("register") { [unowned self] frame in
            try self.installPendingPlugins(for: frame)
            _ = try frame.string(1)
            return try self.pushDeclarationBody(registerBody, in: frame)
        }))
        try lua.setGlobal("provider", .function(lua.frameFunction("provider") { [unowned self] frame in
            try self.installPendingPlugins(for: frame)
            let keyText = try frame.string(1)
            // An unknown type fails here, at its line (check reports it once, at the registration that uses it).
            if !self.isDryRun { _ = try ScriptKey(parsing: keyText, catalog: self.types) }
            try frame.push(.userdata(self.lua.pushObject(ProviderMarker(key: keyText), type: ProviderMarker.luaTypeName)))
            return 1
        }))
        try lua.setGlobal("scope", .function(lua.frameFunction("scope") { [unowned self] frame in
            try self.installPendingPlugins(for: frame)
            let name = try frame.string(1)
            try ScriptNames.check(name, what: "a scope name")
            var parent: String?
            if !frame.isNoneOrNil(2) {
                guard case .table(let options) = frame.value(2) else { throw frame.typeError(2, expected: "table") }
                for (key, _) in try options.pairs() where key != "within" {
                    throw LuaError(.typeMismatch, "scope '\(name)': unknown option \(describeKey(key)) (options: within)")
                }
                parent = try Optional<String>.fromLua(options.rawGet("within"))
            }
            self.checkSession?.reached(frame.origin(), name: name)
            try self.registry.declareScope(ScopeDeclaration(name: name, parent: parent, origin: frame.origin()))
            return 0
        }))
        try lua.setGlobal("container", .function(lua.frameFunction("container") { [unowned self] frame in
            try self.installPendingPlugins(for: frame)
            if frame.isNoneOrNil(1) {
                // container(): the one plain resolve uses (to open its scopes, say).
                if self.isDryRun { throw self.stopForCheck(frame, "container()") }
                let container = try self.sharedContainer()
                try frame.push(.userdata(self.lua.pushObject(ScriptContainer(container), type: try self.containerType())))
                return 1
            }
            let name = try frame.string(1)
            if self.isDryRun {
                // Declarations end here; the name is checked all the same (run fails on it).
                if self.registry.configuration(name) == nil {
                    do { _ = try self.registry.registrationCount(in: name) } catch {
                        _ = self.recordDeclarationError(error, at: frame.origin(), in: frame)
                    }
                }
                throw self.stopForCheck(frame, "container \"\(name)\"")
            }
            let container = try self.registry.container(name, disposer: self)
            try frame.push(.userdata(self.lua.pushObject(ScriptContainer(container), type: try self.containerType())))
            return 1
        }))
        try lua.setGlobal("resolve", .function(lua.frameFunction("resolve") { [unowned self] frame in
            try self.installPendingPlugins(for: frame)
            if self.isDryRun { throw self.stopForCheck(frame, "resolve") }
            let container = try self.sharedContainer()
            _ = try self.resolve(in: container, container: container, frame: frame, keyAt: 1)
            return 1
        }))
        // `value "baseURL" { type = "string", default = "…", env = "BASE_URL" }`
        // declares a configuration value; `value "baseURL"` alone, in `deps`,
        // injects it.
        let valueBody = try lua.frameFunction("value") { [unowned self] body in
            let name = body.boundString(1) ?? "", origin = body.boundOrigin(at: 2, files: self.originFiles)
            guard case .table(let table) = body.value(1) else {
                throw LuaError(.typeMismatch, "bad argument #1 to 'value \"\(name)\"' (table (value \"\(name)\" { type = \"string\" }) "
                               + "expected, got \(body.typeName(1))); to inject the value, put value \"\(name)\" in a registration's deps")
            }
            try self.declareValue(name, body: table, origin: origin)
            return 0
        }
        try lua.setGlobal("value", .function(lua.frameFunction("value") { [unowned self] frame in
            try self.installPendingPlugins(for: frame)
            let name = try frame.string(1)
            try ConfigurationValues.checkName(name, what: "value")
            _ = try self.pushDeclarationBody(valueBody, in: frame)
            // Remembered, so that `deps` knows this function stands for the value.
            if self.valueReferences == nil {
                self.valueReferences = try self.lua.run("return setmetatable({}, { __mode = 'k' })", name: "=[values]").first?.table()
            }
            try self.valueReferences?.rawSet(frame.pushedValue, LuaValue(name))
            return 1
        }))
        // `values { baseURL = server.baseURL }`: values the script works out as it runs.
        try lua.setGlobal("values", .function(lua.frameFunction("values") { [unowned self] frame in
            try self.installPendingPlugins(for: frame)
            guard case .table(let table) = frame.value(1) else { throw frame.typeError(1, expected: "table") }
            try self.values.setFromScript(table, origin: frame.origin())
            return 0
        }))
        // `interface "Logger" { "info", "warn" }`: a type the script names,
        // whose values are tables with those methods.
        let interfaceBody = try lua.frameFunction("interface") { [unowned self] body in
            let name = body.boundString(1) ?? "", origin = body.boundOrigin(at: 2, files: self.originFiles)
            guard case .table(let table) = body.value(1) else {
                throw LuaError(.typeMismatch, "bad argument #1 to 'interface \"\(name)\"' "
                               + "(table of method names (interface \"\(name)\" { \"method\", … }) expected, got \(body.typeName(1)))")
            }
            var methods: [String] = []
            for (key, value) in try table.pairs() {
                guard case .integer = key, case .string(let method) = value, isIdentifier(method.description) else {
                    throw LuaError(.typeMismatch, "interface '\(name)' (\(origin)): list its methods by name, "
                                   + "interface \"\(name)\" { \"info\", \"warn\" } (got \(describeKey(key)) = \(describeValue(value)))")
                }
                methods.append(method.description)
            }
            guard !methods.isEmpty else {
                throw LuaError(.typeMismatch, "interface '\(name)' (\(origin)): an interface lists at least one method "
                               + "(for any table at all, use the key table#name)")
            }
            guard methods.count == Set(methods).count else {
                throw LuaError(.typeMismatch, "interface '\(name)' (\(origin)): a method is listed twice")
            }
            try self.types.addScriptInterface(name, methods: methods, origin: origin)
            return 0
        }
        try lua.setGlobal("interface", .function(lua.frameFunction("interface") { [unowned self] frame in
            try self.installPendingPlugins(for: frame)
            let name = try frame.string(1)
            let luaTypes: Set<String> = ["nil", "boolean", "number", "integer", "string", "table", "function", "thread", "userdata", "any"]
            guard isIdentifier(name), name.utf8.count <= 200, !luaTypes.contains(name) else {
                throw frame.argumentError(1, "an interface name is a type name such as \"Logger\": letters, digits and _, "
                                          + "not starting with a digit, at most 200 bytes, not a Lua type")
            }
            return try self.pushDeclarationBody(interfaceBody, in: frame)
        }))
        try lua.setGlobal("implement", .function(lua.frameFunction("implement") { [unowned self] frame in
            try self.installPendingPlugins(for: frame)
            let name = try frame.string(1)
            let type = try self.types.type(named: name)
            guard type.kind == .interface else {
                throw frame.argumentError(1, "'\(name)' is a \(type.kind.rawValue), not an interface")
            }
            do {
                _ = try type.fromLua(frame.value(2), self.lua)
            } catch let error as LuaError where error.kind == .typeMismatch {
                throw frame.argumentError(2, error.message)
            }
            try frame.push(frame.value(2))
            return 1
        }))
    }

    /// `configuration "name" { … }`: defines the configuration (or adds to
    /// one a plugin or an earlier piece of script defined) and adds its
    /// registrations in order.
    private func applyConfiguration(_ name: String, body value: LuaValue, origin: Origin, frame: LuaFrame) throws {
        guard case .table(let body) = value else {
            throw LuaError(.typeMismatch, "configuration '\(name)' (\(origin)): the body must be a table { register … }")
        }
        var specs: [(Int, RegistrationSpec)] = []
        var parent: String?
        // Read in place: a configuration of 100,000 registrations made and
        // dropped 100,000 userdata references.
        try body.forEachEntry { key, item in
            do {
                if let position = key.integer {
                    guard let spec = item.object(as: RegistrationSpec.self) else {
                        throw LuaError(.typeMismatch, "configuration '\(name)' (\(origin)): item [\(position)] is \(describeValue(item.value)), "
                                       + "not a register \"Type\" { … }")
                    }
                    specs.append((position, spec))
                } else if key.text == "extends" {
                    guard let text = item.text else {
                        throw LuaError(.typeMismatch, "configuration '\(name)' (\(origin)): 'extends' must name a configuration (got \(item.value.typeName))")
                    }
                    parent = text
                } else {
                    let suggestion = key.text.map { NameSuggestion.didYouMean($0, among: ["extends"]) } ?? ""
                    throw LuaError(.typeMismatch, "configuration '\(name)' (\(origin)): unknown field \(describeKey(key.value))\(suggestion) "
                                   + "(a configuration holds register \"…\" { … } items and 'extends')")
                }
            } catch where recordDeclarationError(error, at: origin, in: frame) {
                // check goes on without the bad item
            }
        }
        let configuration: Configuration
        if let existing = registry.configuration(name) {
            if let parent, existing.parent != parent {
                let error = RegistryError(.invalidRegistration,
                                    "configuration '\(name)' is given extends = '\(parent)', but it was first defined at \(existing.origin) "
                                    + (existing.parent.map { "extending '\($0)'" } ?? "extending nothing"),
                                    details: ["say extends only where the configuration is first defined"], origin: origin)
                guard recordDeclarationError(error, at: origin, in: frame) else { throw error }
            }
            configuration = existing
        } else {
            do {
                configuration = try registry.defineConfiguration(name, extends: parent, origin: origin)
            } catch where recordDeclarationError(error, at: origin, in: frame) {
                // extends names no configuration (or a cycle): checked as if it extended nothing
                configuration = try registry.defineConfiguration(name, extends: nil, origin: origin)
            }
        }
        for (_, spec) in specs.sorted(by: { $0.0 < $1.0 }) {
            do {
                guard let registration = spec.take() else {
                    throw RegistryError(.invalidRegistration, "register \"\(spec.key)\" (\(spec.origin)) is used in two configurations",
                                        details: ["write one register block per configuration"], origin: spec.origin)
                }
                try configuration.add(registration)
            } catch where recordDeclarationError(error, at: spec.origin, in: frame) {
                // check goes on with the configuration's other registrations
            }
        }
    }

    // MARK: Resolving from scripts

    /// Resolves the key at argument `keyAt` (with named runtime arguments at
    /// `keyAt + 1`) from `resolving`, as a Lua value.
    /// Resolves the key at `position` (with the runtime arguments after it)
    /// and pushes the result. Returns whether the result may be remembered
    /// for that key on `container` (``LuaClass/memoizingMethod(_:_:)``): a
    /// singleton resolved on the container itself (`onContainer`, not
    /// through a scope, which may close), without arguments, when nobody
    /// watches resolves.
    func resolve(in resolving: Resolving, container: Container, frame: LuaFrame, keyAt position: Int32,
                 onContainer: Bool = false) throws -> Bool {
        let key = try parsedKey(frame.string(position))
        let registration = container.registration(for: key.serviceKey)
        let arguments = frame.count <= position && registration?.arguments.isEmpty != false
            ? Arguments.none
            : try runtimeArguments(frame.value(position + 1), for: registration, key: key.description)
        // (A script's scopes are a stack: on the container, the newest open one of a name.)
        let value = try outsideFactoryIfFinalizer(frame) { try ScriptScopes.stacked { try resolving.resolveAny(key.serviceKey, arguments: arguments) } }
        if let onScriptResolve { onScriptResolve(registration, container, value) }
        try types.push(value, to: frame)
        return onContainer && onScriptResolve == nil && frame.count == position
            && registration?.scope == .singleton
    }

    /// What `configuration "x"`, `register "K"`, `value "x"` and `interface
    /// "X"` return: `body` bound to the name (argument 1) and the caller's
    /// place, to be called with the declaration's table.
    private func pushDeclarationBody(_ body: LuaFunction, in frame: LuaFrame) throws -> Int32 {
        frame.pushArgument(1)
        frame.push(frame.origin(), files: originFilesPushed)
        try frame.pushBound(body, values: 3)
        return 1
    }

    /// Runs `body` as no factory's own when a finalizer (or hook) called
    /// this during a Lua factory's run: the collector runs finalizers
    /// wherever it happens to be, and what they resolve is not the
    /// factory's undeclared dependency.
    func outsideFactoryIfFinalizer<R>(_ frame: LuaFrame, _ body: () throws -> R) throws -> R {
        guard runningLuaFactories > 0, frame.isInsideFinalizerOrHook else { return try body() }
        return try Container.outsideAnyResolve(body)
    }

    /// `value "name" { type = …, default = …, env = … }`'s body.
    private func declareValue(_ name: String, body: LuaTable, origin: Origin) throws {
        for (key, _) in try body.pairs() {
            guard case .string(let field) = key, ["type", "default", "env"].contains(field.description) else {
                throw LuaError(.typeMismatch, "value '\(name)' (\(origin)): unknown field \(describeKey(key)) (fields: type, default, env)")
            }
        }
        let kinds = ConfigurationValues.Kind.allCases.map(\.rawValue).joined(separator: ", ")
        guard case .string(let typeName) = try body.rawGet("type"),
              let kind = ConfigurationValues.Kind(rawValue: typeName.description) else {
            throw LuaError(.typeMismatch, "value '\(name)' (\(origin)): 'type' must be one of \(kinds)")
        }
        var defaultValue: ConfigurationValues.Given?
        let source = "the default at \(origin)"
        switch try body.rawGet("default") {
        case .nil: break
        case .string(let text): defaultValue = .init(value: .text(text.description), source: source)
        case .integer(let number): defaultValue = .init(value: .integer(number), source: source)
        case .number(let number): defaultValue = .init(value: .number(number), source: source)
        case .boolean(let flag): defaultValue = .init(value: .boolean(flag), source: source)
        case let other:
            throw LuaError(.typeMismatch, "value '\(name)' (\(origin)): the default must be a \(kind.rawValue) (got \(other.typeName))")
        }
        var environment: String?
        switch try body.rawGet("env") {
        case .nil: break
        case .string(let variable) where !variable.description.isEmpty && !variable.description.contains("=")
                && !variable.description.utf8.contains(0):
            environment = variable.description
        case let other:
            throw LuaError(.typeMismatch, "value '\(name)' (\(origin)): 'env' names an environment variable (got \(describeValue(other)))")
        }
        do {
            try values.declare(.init(name: name, kind: kind, defaultValue: defaultValue, environment: environment, origin: origin))
        } catch let error as LuaError {
            throw LuaError(error.kind, "value '\(name)' (\(origin)): " + error.message)
        }
    }

    /// A key as `register`/`resolve` write it, parsed once per host: types
    /// are only ever added to the catalog, so a parse that succeeded stays
    /// right. (At most 4,096 are kept; failures are never kept.)
    func parsedKey(_ text: String) throws -> ScriptKey {
        if let key = parsedKeys[text] { return key }
        let key = try ScriptKey(parsing: text, catalog: types)
        if parsedKeys.count < 4096 { parsedKeys[text] = key }
        return key
    }

    /// A table of named runtime arguments as the registration's positional
    /// ``Arguments``, each converted to its declared type.
    func runtimeArguments(_ value: LuaValue, for registration: Registration?, key: String) throws -> Arguments {
        let specs = registration?.arguments ?? []
        let expected = specs.map(\.description).joined(separator: ", ")
        guard case .table(let table) = value else {
            if case .nil = value {
                if specs.isEmpty { return .none }
                throw LuaError(.typeMismatch, "\(key) takes runtime arguments (\(expected)): pass them as a table, "
                               + "resolve(\"\(key)\", { \(specs[0].name) = … })")
            }
            throw LuaError(.typeMismatch, "the runtime arguments of \(key) must be a table of names (got \(value.typeName))")
        }
        if registration != nil {
            for (name, _) in try table.pairs() {
                guard case .string(let text) = name, specs.contains(where: { $0.name == text.description }) else {
                    var suggestion = ""
                    if case .string(let text) = name { suggestion = NameSuggestion.didYouMean(text.description, among: specs.map(\.name)) }
                    throw LuaError(.typeMismatch, "\(key) has no runtime argument \(describeKey(name))\(suggestion) "
                                   + "(it takes \(specs.isEmpty ? "none" : expected))")
                }
            }
        }
        var values: [Any] = []
        for spec in specs {
            let raw = try table.rawGet(LuaValue(spec.name))
            if case .nil = raw {
                throw LuaError(.typeMismatch, "runtime argument '\(spec.name)' of \(key) is missing (\(spec.type.name) expected)")
            }
            guard let type = types.type(for: spec.type) else {
                throw LuaError(.typeMismatch, "runtime argument '\(spec.name)' of \(key) is a \(spec.type.name), which scripts cannot pass")
            }
            do {
                values.append(try type.fromLua(raw, lua))
            } catch let error as LuaError where error.kind == .typeMismatch || error.kind == .encoding {
                throw LuaError(error.kind, "bad runtime argument '\(spec.name)' for \(key) (\(error.message))")
            }
        }
        return Arguments(values)
    }

    /// A provider as a Lua function: `make()` or `make({ user = u })`.
    func providerFunction(_ provider: Provider<Any>, name: String) throws -> LuaFunction {
        try lua.frameFunction("provider of \(name)") { [unowned self] frame in
            let arguments = try self.runtimeArguments(frame.value(1), for: provider.registration, key: name)
            try self.types.push(self.outsideFactoryIfFinalizer(frame) { try ScriptScopes.stacked { try provider.call(arguments: arguments) } }, to: frame)
            return 1
        }
    }
}

/// Whether `text` is a Lua identifier (letters, digits, `_`; not starting
/// with a digit) — what interface and method names must be.
func isIdentifier(_ text: String) -> Bool {
    guard let first = text.utf8.first, !(48...57).contains(first) else { return false }
    return text.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 65 && $0 <= 90) || ($0 >= 48 && $0 <= 57) || $0 == 95 }
}

extension FactoryHost {
    /// In a dry run, records `error` — a declaration the script got wrong — as a
    /// problem at `origin` and returns true, so the declaring goes on and `check`
    /// reports every problem at once; otherwise (a run, an error the script
    /// catches with `pcall` on purpose, or one that is not about the declaration:
    /// a stop, a limit, no memory) returns false.
    ///
    /// `namingKey`: the key text the problem is about, when it names one
    /// (`"Clokc"`): check points at the line that names it.
    func recordDeclarationError(_ error: Error, at origin: Origin, in frame: LuaFrame, namingKey: String? = nil) -> Bool {
        guard let session = checkSession, !frame.errorIsCaughtByScript else { return false }
        if let error = error as? RegistryError {
            var problem = CheckProblem(error)
            problem.kind = "declarationError"
            if problem.origin == nil { problem.origin = origin }
            session.declarationErrors.append(problem)
            return true
        }
        guard let error = error as? LuaError, error.kind == .typeMismatch || error.kind == .encoding else { return false }
        // (The place the error carries, if any: a message Swift made may quote a name that looks like one.)
        var problem = CheckProblem(kind: "declarationError", message: error.messageAfterPlace,
                                   origin: error.place.map { Origin(file: $0.file, line: $0.line) } ?? origin)
        problem.missingKey = namingKey
        session.declarationErrors.append(problem)
        return true
    }

    /// A registration of `keyText` that builds nothing, standing in for one whose
    /// body was wrong — under the key it declares (its `name`, a
    /// contribution's `into` and `key`), its `override` flag kept; nil when
    /// that key cannot be told or is bad too: a refused declaration registers
    /// nothing (under the plain key, it hid a missing dependency and made
    /// two refused names a duplicate).
    func standIn(keyText: String, origin: Origin, body: LuaSlot) -> RegistrationSpec? {
        var overrides = false, told = true
        var fields: [String: String] = [:]
        try? body.forEachEntry { name, value in
            switch name.text {
            case "override": if value.type == .boolean, case .boolean(let flag) = value.value { overrides = flag }
            case "name", "into", "key":
                if value.type == .string, let text = value.text, let field = name.text { fields[field] = text } else { told = false }
            default: break
            }
        }
        guard told else { return nil }
        var name = fields["name"]
        var contribution: Contribution?
        switch fields["into"] {
        case nil: break
        case "set"?:
            contribution = .set
            if name == nil && !keyText.contains("#") { name = contributionName(at: origin) }
        case "map"?:
            guard let mapKey = fields["key"], !mapKey.isEmpty else { return nil }
            contribution = .map(key: mapKey)
            if name == nil && !keyText.contains("#") { name = mapKey }
        default: return nil
        }
        guard let key = try? ScriptKey(parsing: keyText, catalog: types, name: name), !key.type.isCollection else { return nil }
        var registration = Registration(key: key.serviceKey, origin: origin, overrides: overrides, factory: FactoryHost.dryRunFactory)
        registration.contribution = contribution
        return RegistrationSpec(registration, key: key.description)
    }
}
