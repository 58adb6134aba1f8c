import FactoryRegistry
import LuaBridge

/// Every type a host's scripts can name, and the conversions between Swift
/// values and Lua values that follow from them.
///
/// Exported classes are installed into Lua (metatable, methods) the first
/// time a script needs them — by `require` of their module, or when an
/// object of theirs is first handed to Lua — so start-up stays cheap.
public final class TypeCatalog {
    private var types: [String: ScriptType] = [:] { didSet { lastFound = nil } }
    /// Every plugin's types by plugin, then name: `koober.User` always names
    /// one. A plugin whose names are not global (``FactoryPlugin/typeNamesAreGlobal``)
    /// has its plain names in `types` only once a script requires its module.
    private var pluginTypes: [String: [String: ScriptType]] = [:]
    /// The plugins whose names wait for a `require` (not yet revealed).
    private var waitingPlugins: Set<String> = []
    /// Plain names of plugin types a script named by their qualified name
    /// (`networking.Cache`): an `interface "Cache"` of the script's would then show under the same name.
    private var qualifiedInUse: Set<String> = []
    /// The plugins whose names come with a `require` (revealed or not).
    private var pluginsNamedOnRequire: Set<String> = []
    /// The type `type(named:)` found last: declarations name the same type
    /// again and again (a dictionary lookup was a quarter of parsing a key).
    private var lastFound: ScriptType?
    /// Exported class names by Swift class, for handing objects to Lua.
    private var classNames: [ObjectIdentifier: String] = [:]
    /// How to install each exported class, until it is installed.
    private var installers: [String: (LuaState) throws -> LuaTable] = [:]
    private var installed: [String: LuaTable] = [:]
    /// Exported classes by the exact Swift type of values already handed to
    /// Lua: the name, and the metatable to push them with.
    private var exportedByType: [ObjectIdentifier: LuaMetatableReference] = [:]
    /// Where the userdata a Lua factory returned last is kept, weakly (see
    /// ``rememberBuilt(_:at:in:)``); set by the host.
    var builtObjects: (cache: LuaObjectCache, slot: Int)?
    /// Where each name was exported (a plugin's name), for conflict messages.
    private var exporters: [String: String] = [:]
    /// What each exported class shows scripts, by name: worked out when
    /// asked (completion, the sweep), not for every class at start-up.
    private var classMembers: [String: () -> LuaClassMembers] = [:]
    /// The names of each exported class's class functions (for `classShape`).
    private var classFunctionNames: [String: () -> [String]] = [:]
    /// Each exported interface's required methods.
    private var interfaceMethods: [String: [String]] = [:]
    /// The exported interfaces that declare their methods' signatures and
    /// their properties: what an assisted factory is generated from.
    private var interfaceShapes: [String: InterfaceShape] = [:]
    /// The interfaces scripts declared (`interface "Logger" { … }`), with
    /// where, and the object that gives each its identity as a service type.
    private var scriptInterfaces: [String: (methods: [String], origin: Origin, identity: AnyObject)] = [:]

    /// The members of the exported class `name` (constructors, methods,
    /// properties), if it is one.
    public func members(ofClass name: String) -> LuaClassMembers? { classMembers[name]?() }

    /// The plugin (or `factoryhost`) that exported `name`.
    public func exporter(of name: String) -> String? { exporters[name] }

    /// Who exported `type`: a plugin (`plugin 'networking'`), the script (`the
    /// script at app.lua:3`) or `factoryhost` — told apart by the type itself
    /// where a script's interface and a plugin's type share a name.
    public func exporter(of type: ScriptType) -> String? {
        if let script = scriptInterfaces[type.name], types[type.name]?.serviceType == type.serviceType,
           case .interface = type.kind, !pluginTypes.values.contains(where: { $0[type.name]?.serviceType == type.serviceType }) {
            return "the script at \(script.origin)"
        }
        if let plugin = pluginTypes.first(where: { $0.value[type.name]?.serviceType == type.serviceType })?.key {
            return plugin == "factoryhost" ? "factoryhost" : "plugin '\(plugin)'"
        }
        return exporters[type.name]
    }

    /// The methods a Lua implementation of interface `name` must have, if it is one.
    public func requiredMethods(ofInterface name: String) -> [String]? { interfaceMethods[name] }

    /// The typed methods and the properties of interface `name`, if it
    /// declares them.
    public func shape(ofInterface name: String) -> InterfaceShape? { interfaceShapes[name] }

    init() {
        addPrimitive("integer", Int.self) { value, _ in try Int.fromLua(value) }
        addPrimitive("number", Double.self) { value, _ in try Double.fromLua(value) }
        addPrimitive("string", String.self) { value, _ in try String.fromLua(value) }
        addPrimitive("boolean", Bool.self) { value, _ in try Bool.fromLua(value) }
        addPrimitive("table", LuaTable.self) { value, _ in try LuaTable.fromLua(value) }
        addPrimitive("function", LuaFunction.self) { value, _ in try LuaFunction.fromLua(value) }
        addPrimitive("any", LuaValue.self) { value, _ in value }
    }

    private func addPrimitive<T>(_ name: String, _ type: T.Type, _ read: @escaping (LuaValue, LuaState) throws -> Any) {
        types[name] = ScriptType(name: name, kind: .primitive, serviceType: ServiceType(type, name: name), fromLua: read)
        exporters[name] = "factoryhost"
    }

    /// Every name scripts can use now, sorted (a plugin whose names wait for
    /// its `require` is not among them until then).
    public var names: [String] { types.keys.sorted() }

    /// Every type's plain name, visible now or not (each plugin's, the
    /// host's `Container` and `Scope`), sorted: for tools that walk all exports.
    public var allNames: [String] {
        Set(types.keys).union(pluginTypes.values.flatMap(\.keys)).sorted()
    }

    /// The type scripts call `name`, if any.
    public func type(_ name: String) -> ScriptType? { types[name] }

    /// The type scripts call `name`; an unknown name is an error naming the
    /// nearest few types and how to declare one of your own.
    ///
    /// - Throws: a `LuaError` (`.typeMismatch`) for an unknown name, suggesting the nearest types.
    public func type(named name: String) throws -> ScriptType {
        if let lastFound, lastFound.name == name { return lastFound }
        if let type = types[name] {
            lastFound = type
            return type
        }
        if let type = qualifiedType(name) {
            // Two types shown under one name would make messages and graphs say the wrong one.
            if let plain = types[type.name], plain.serviceType != type.serviceType {
                let place = scriptInterfaces[type.name].map { " (interface \"\(type.name)\" at \($0.origin))" } ?? ""
                throw LuaError(.typeMismatch, "'\(name)' and the script's own '\(type.name)'\(place) would both show as '\(type.name)' "
                               + "in messages and graphs: give the script's interface another name")
            }
            qualifiedInUse.insert(type.name)
            return type
        }
        throw LuaError(.typeMismatch, unknownTypeMessage(name))
    }

    /// `koober.User`: plugin `koober`'s type `User`, whether its plain name is visible or not.
    private func qualifiedType(_ name: String) -> ScriptType? {
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")) else { return nil }
        let plugin = String(name[..<dot]), typeName = String(name[name.utf8.index(after: dot)...])
        return pluginTypes[plugin]?[typeName]
    }

    /// Makes the plain names of `plugin`'s types visible (its module was
    /// required); a name a script already took for a type of its own (an
    /// `interface "User"`) stays the script's — the plugin's is `plugin.User`.
    func reveal(plugin: String) {
        guard waitingPlugins.remove(plugin) != nil else { return }
        for (name, type) in pluginTypes[plugin] ?? [:] where types[name] == nil { types[name] = type }
    }

    /// The plugins whose names wait for a `require` now.
    var waitingPluginNames: Set<String> { waitingPlugins }

    /// Makes the names of `plugins` wait for a `require` again (a test that
    /// required one is over); returns whether any name went.
    func hide(plugins: Set<String>) -> Bool {
        var removed = false
        for plugin in plugins where !waitingPlugins.contains(plugin) {
            waitingPlugins.insert(plugin)
            for (name, type) in pluginTypes[plugin] ?? [:] where types[name]?.serviceType == type.serviceType {
                types[name] = nil
                removed = true
            }
        }
        return removed
    }

    /// The plugins that export a type `name` a script cannot name plainly yet.
    func waitingOwners(of name: String) -> [String] {
        waitingPlugins.filter { pluginTypes[$0]?[name] != nil }.sorted()
    }

    /// Adds `type`, visible now unless its plugin waits for a `require`.
    private func add(_ type: ScriptType, plugin: String?) {
        if let plugin {
            pluginTypes[plugin, default: [:]][type.name] = type
            if waitingPlugins.contains(plugin) { return }
        }
        types[type.name] = type
    }

    /// Notes that `plugin`'s type names wait for its module's `require`.
    func namesWaitForRequire(of plugin: String) {
        waitingPlugins.insert(plugin)
        pluginsNamedOnRequire.insert(plugin)
    }

    /// `unknown type 'Clokc', did you mean 'Clock'?`, or the nearest few and how to
    /// declare a type of one's own — never the whole list (`factoryhost types` lists it).
    func unknownTypeMessage(_ name: String) -> String {
        var owners = waitingOwners(of: name)
        if owners.contains("factoryhost") {
            owners.removeAll { $0 == "factoryhost" }
            if owners.isEmpty {
                return "unknown type '\(name)': factoryhost's own \(name) is \"factoryhost.\(name)\" (the plain name is free for a type "
                    + "of your own: interface \"\(name)\" { … })"
            }
        }
        if !owners.isEmpty {
            // A plugin's type whose name a script gets by asking for the plugin.
            let ways = owners.map { "require \"factoryhost.\($0)\" first, or write \"\($0).\(name)\"" }
            return "unknown type '\(name)': it is a type of plugin \(owners.map { "'\($0)'" }.joined(separator: ", ")) — "
                + ways.joined(separator: "; ")
                + " (or declare a type of your own: interface \"\(name)\" { … })"
        }
        let named = types.keys
        let (typo, nearest) = NameSuggestion.near(name, among: named, limit: 3)
        if let typo { return "unknown type '\(name)', did you mean '\(typo)'?" }
        let printable = name.utf8.count <= 64 && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
        var text = "unknown type '\(name.prefix(80))'"
        if !nearest.isEmpty { text += " (nearest: \(nearest.joined(separator: ", ")))" }
        if printable {
            text += "; to name a type of your own, declare it with interface \"\(name)\" { … }, or take any table as \"table#\(name)\""
        }
        if types.values.allSatisfy({ $0.kind == .primitive }) && pluginTypes.keys.allSatisfy({ $0 == "factoryhost" }) {
            text += " (no types are exported: is the plugin loaded?)"
        }
        return text
    }

    /// The script type registered for a Swift service type, if any.
    public func type(for serviceType: ServiceType) -> ScriptType? {
        if let type = types[serviceType.name], type.serviceType == serviceType { return type }
        for (_, named) in pluginTypes {
            if let type = named[serviceType.name], type.serviceType == serviceType { return type }
        }
        return nil
    }

    // MARK: Adding types

    /// Adds an exported class. Its description is made when first needed
    /// (its class table installed, its members asked for), not here: a
    /// process pays only for the classes its script uses.
    func addClass<T: LuaExportable>(making makeDescription: @escaping () -> LuaClass<T>, exporter: String,
                                    plugin: String? = nil) throws {
        let name = T.luaTypeName
        // Not generic (a generic box's type would be made at start-up, per class).
        let made = LazyObject { makeDescription() }
        var description: LuaClass<T> { unsafeDowncast(made.value, to: LuaClass<T>.self) }
        try claim(name, exporter)
        add(ScriptType(name: name, kind: .class, serviceType: ServiceType(T.self, name: name), fromLua: { value, _ in
            try T.fromLua(value)
        }, fromFrame: { frame, index in
            // The exact class by its metatable; anything else (a subclass, a
            // wrong value) through the general path and its message.
            if let object = try? frame.object(index, as: T.self, typeName: name) { return object }
            return try T.fromLua(frame.value(index))
        }), plugin: plugin)
        classNames[ObjectIdentifier(T.self)] = name
        installers[name] = { [unowned self] state in
            let table = try description.install(in: state)
            // Objects of exactly this class are pushed without a lookup by name from now on.
            exportedByType[ObjectIdentifier(T.self)] = try state.metatableReference(for: name)
            return table
        }
        classMembers[name] = { description.members }
        classFunctionNames[name] = { description.classFunctionNames }
    }

    func addInterface<P>(_ interface: LuaInterface<P>, exporter: String, plugin: String? = nil) throws {
        try claim(interface.name, exporter)
        interfaceMethods[interface.name] = interface.requiredMethods
        if !interface.methods.isEmpty || !interface.properties.isEmpty {
            interfaceShapes[interface.name] = InterfaceShape(methods: interface.methods, properties: interface.properties)
        }
        add(ScriptType(name: interface.name, kind: .interface,
                       serviceType: ServiceType(P.self, name: interface.name)) { value, state in
            try interface.implementation(of: value, in: state)
        }, plugin: plugin)
    }

    /// Declares the interface `name` a script wrote (`interface "Logger" {
    /// "info", "warn" }`): a type its registrations and dependencies can
    /// name, whose values are Lua tables with every method. Declaring it
    /// again the same way is fine; differently, an error naming both places.
    func addScriptInterface(_ name: String, methods: [String], origin: Origin) throws {
        if let existing = scriptInterfaces[name] {
            guard existing.methods.sorted() == methods.sorted() else {
                throw LuaError(.typeMismatch, "interface '\(name)' is declared twice, differently: "
                               + "{ \(existing.methods.joined(separator: ", ")) } at \(existing.origin), "
                               + "and { \(methods.joined(separator: ", ")) } here")
            }
            return
        }
        if qualifiedInUse.contains(name) {
            throw LuaError(.typeMismatch, "interface '\(name)': the script names a plugin's '\(name)' already (as plugin.\(name)), "
                           + "and both would show as '\(name)' in messages and graphs; choose another name")
        }
        if let taken = types[name] {
            let owner = exporters[name] ?? "factoryhost"
            let plugin = pluginTypes.first { $0.value[name]?.serviceType == taken.serviceType && pluginsNamedOnRequire.contains($0.key) }?.key
            throw LuaError(.typeMismatch, "interface '\(name)': there is a type '\(name)' already (exported by \(owner)); "
                           + (plugin.map { "declare yours before require \"factoryhost.\($0)\" (the plugin's is then \($0).\(name)), or " } ?? "")
                           + "choose another name")
        }
        final class Identity {}
        let identity = Identity()
        let interface = LuaInterface<LuaTable>(name, requires: methods) { $0.table }
        scriptInterfaces[name] = (methods, origin, identity)
        interfaceMethods[name] = methods
        if exporters[name] == nil { exporters[name] = "the script at \(origin)" }     // (a waiting plugin's claim stays)
        types[name] = ScriptType(name: name, kind: .interface,
                                 serviceType: ServiceType(LuaTable.self, name: name, identity: identity)) { value, state in
            try interface.implementation(of: value, in: state)
        }
    }

    /// `[element]` (`map`: `{element}`): the list or map of its contributions
    /// as a type scripts name in `deps` — made by the container, never
    /// given from Lua.
    func collectionType(of element: ScriptType, map: Bool) -> ScriptType {
        let serviceType: ServiceType = map ? .map(of: element.serviceType) : .list(of: element.serviceType)
        let name = map ? "{\(element.name)}" : "[\(element.name)]"
        return ScriptType(name: name, kind: .primitive, serviceType: serviceType, fromLua: { value, _ in
            throw LuaError(.typeMismatch, "\(name) expected, got \(value.typeName) (a collection is made by the container)")
        }, elementName: element.name)
    }

    /// The names of the interfaces scripts declared.
    var scriptInterfaceNames: Set<String> { Set(scriptInterfaces.keys) }

    /// Forgets the script interfaces not in `kept` (declared since a
    /// snapshot); returns whether there were any.
    func removeScriptInterfaces(keeping kept: Set<String>) -> Bool {
        let gone = scriptInterfaces.keys.filter { !kept.contains($0) }
        for name in gone {
            scriptInterfaces[name] = nil
            interfaceMethods[name] = nil
            exporters[name] = nil
            types[name] = nil
        }
        return !gone.isEmpty
    }

    private func claim(_ name: String, _ exporter: String) throws {
        if let existing = exporters[name] {
            throw LuaError(.runtime, "type '\(name)' is exported twice: by \(existing) and by \(exporter)")
        }
        exporters[name] = exporter
    }

    /// The class table of exported class `name` (`{ new = … }`), installing
    /// the class into `state` on first use.
    func classTable(_ name: String, in state: LuaState) throws -> LuaTable {
        if let table = installed[name] { return table }
        guard let install = installers[name] else { throw LuaError(.runtime, "'\(name)' is not an exported class") }
        let table = try install(state)
        try StrictTable.make(table, in: state, what: "class '\(name)'")
        installed[name] = table
        return table
    }

    /// The shape of class `name`'s table without installing the class: the
    /// keys `LuaClass.install` gives it (`new`, the class functions,
    /// `typeName`), every function being `placeholder`. Check's dry run
    /// makes its stopped copy of a plugin that reaches outside the process
    /// from this: nothing of such a plugin runs, so its metatables and
    /// methods would be made for nothing. (The installed table, if the class
    /// was installed already.)
    func classShape(_ name: String, in state: LuaState, placeholder: LuaFunction) throws -> LuaTable {
        if let table = installed[name] { return table }
        guard let functions = classFunctionNames[name]?() else { throw LuaError(.runtime, "'\(name)' is not an exported class") }
        let table = try state.newTable(hashCapacity: functions.count + 2)
        try table.rawSet("new", .function(placeholder))
        for function in functions { try table.rawSet(LuaValue(function), .function(placeholder)) }
        try table.rawSet("typeName", LuaValue(name))
        return table
    }

    // MARK: Swift → Lua

    /// `value` as a Lua value: numbers, strings, booleans and Lua values as
    /// they are; an exported object as its userdata (its class installed on
    /// first use); an adapter as the Lua table it wraps; any other class
    /// instance as an opaque userdata named by its Swift type.
    package func toLua(_ value: Any, in state: LuaState) throws -> LuaValue {
        // The common case — an object of an exported class — without the
        // dynamic casts below (each costs a conformance lookup).
        if let exported = exportedByType[ObjectIdentifier(Swift.type(of: value))] {
            return .userdata(try state.pushObject(classReference(value), type: exported.typeName))
        }
        return try slowToLua(value, in: state)
    }

    /// Pushes `value` (converted as by ``toLua(_:in:)``) onto `frame`'s stack.
    /// The object a Lua factory just returned goes back as the userdata it
    /// returned, while Lua still holds that (see ``rememberBuilt(_:at:in:)``).
    func push(_ value: Any, to frame: LuaFrame) throws {
        if let exported = exportedByType[ObjectIdentifier(Swift.type(of: value))] {
            let object = classReference(value)
            if let built = builtObjects, frame.pushCachedObject(object, cache: built.cache, slot: built.slot) { return }
            frame.pushObject(object, metatable: exported)
            return
        }
        try frame.push(slowToLua(value, in: frame.state))
    }

    /// Pushes `value` as by ``push(_:to:)``; an object of an exported class
    /// reuses the userdata `slot` of `cache` still holds for it, and the
    /// userdata pushed stays in the slot (weakly).
    func push(_ value: Any, to frame: LuaFrame, cache: LuaObjectCache, slot: Int) throws {
        guard exportedByType[ObjectIdentifier(Swift.type(of: value))] != nil else { return try push(value, to: frame) }
        if frame.pushCachedObject(classReference(value), cache: cache, slot: slot) { return }
        try push(value, to: frame)
        frame.cacheObject(at: -1, cache: cache, slot: slot)
    }

    /// Keeps the userdata at `index`, which a Lua factory returned and which
    /// holds `value`, weakly in the host's built-object slot: when `value`
    /// is pushed next (the resolve that called the factory returning it, a
    /// provider, a factory it is a dependency of) that userdata goes back,
    /// not a second one — one allocation and one finalizer fewer per
    /// transient, and the script sees the userdata its factory made. The
    /// slot never keeps it alive, and C checks the object and its class
    /// before reusing it.
    func rememberBuilt(_ value: Any, at index: Int32, in frame: LuaFrame) {
        guard let built = builtObjects, exportedByType[ObjectIdentifier(Swift.type(of: value))] != nil else { return }
        frame.cacheObject(at: index, cache: built.cache, slot: built.slot)
    }

    private func slowToLua(_ value: Any, in state: LuaState) throws -> LuaValue {
        // A cast that fails costs a conformance search (a Lua table tried
        // as each type in turn took a microsecond): match the exact type first.
        switch ObjectIdentifier(Swift.type(of: value)) {
        // (Exactly these final classes: the reference is the existential's first word.)
        case ObjectIdentifier(LuaTable.self): return .table(unsafeDowncast(classReference(value), to: LuaTable.self))
        case ObjectIdentifier(LuaFunction.self): return .function(unsafeDowncast(classReference(value), to: LuaFunction.self))
        case ObjectIdentifier(LuaValue.self): if let v = value as? LuaValue { return v }
        case ObjectIdentifier(Int.self): if let v = value as? Int { return .integer(v) }
        case ObjectIdentifier(Double.self): if let v = value as? Double { return .number(v) }
        case ObjectIdentifier(String.self): if let v = value as? String { return LuaValue(v) }
        case ObjectIdentifier(Bool.self): if let v = value as? Bool { return .boolean(v) }
        default: break
        }
        switch value {
        case let v as LuaValue: return v
        case let v as Int: return .integer(v)
        case let v as Double: return .number(v)
        case let v as Bool: return .boolean(v)
        case let v as String: return LuaValue(v)
        case let v as LuaTable: return .table(v)
        case let v as LuaFunction: return .function(v)
        case let v as LuaImplemented: return .table(v.implementation.face)
        case let list as [Any]:                      // a list of contributions: a Lua array
            let table = try state.newTable(arrayCapacity: list.count)
            for (index, item) in list.enumerated() { try table.rawSet(.integer(index + 1), try toLua(item, in: state)) }
            return .table(table)
        case let map as ContributedMap:              // a map of contributions: key → value
            let table = try state.newTable(hashCapacity: map.keys.count)
            for (key, item) in zip(map.keys, map.values) { try table.rawSet(LuaValue(key), try toLua(item, in: state)) }
            return .table(table)
        default: break
        }
        if let object = classInstance(value) {
            if let name = exportedName(of: Swift.type(of: object)) {
                _ = try classTable(name, in: state)
                exportedByType[ObjectIdentifier(Swift.type(of: value))] = try state.metatableReference(for: name)
                return .userdata(try state.pushObject(object, type: name))
            }
            return .userdata(try state.pushObject(object, type: String(describing: Swift.type(of: object))))
        }
        if let convertible = value as? any LuaConvertible { return try convertible.toLua(in: state) }
        throw LuaError(.typeMismatch, "a \(String(describing: Swift.type(of: value))) cannot be handed to Lua (export it from a plugin)")
    }

    /// The reference inside `value`, whose dynamic type is known to be a
    /// class (it is in `exportedByType`). An `Any` holding a class instance
    /// keeps the reference in the first word of its inline buffer; reading
    /// it there skips `as AnyObject`, which goes through the general bridging
    /// cast and cost an eighth of a Lua factory call.
    private func classReference(_ value: Any) -> AnyObject {
        withUnsafeBytes(of: value) { $0.load(as: AnyObject.self) }
    }

    private func classInstance(_ value: Any) -> AnyObject? {
        guard Swift.type(of: value) is AnyClass else { return nil }
        return value as AnyObject
    }

    /// The exported name of `type` or of its nearest exported superclass.
    private func exportedName(of type: AnyClass) -> String? {
        var cursor: AnyClass? = type
        while let current = cursor {
            if let name = classNames[ObjectIdentifier(current)] { return name }
            cursor = _getSuperclass(current)
        }
        return nil
    }
}

/// An object made on first use, then kept.
private final class LazyObject {
    private let make: () -> AnyObject
    private var made: AnyObject?

    init(_ make: @escaping () -> AnyObject) { self.make = make }

    var value: AnyObject {
        if let made { return made }
        let object = make()
        made = object
        return object
    }
}

/// What an interface declares of its members beyond their names: each
/// method's parameters and result, and its read-only properties.
public struct InterfaceShape: Sendable, Equatable {
    /// Each declared method's parameters and result.
    public var methods: [LuaInterfaceMethod]
    /// The read-only properties an implementation must have.
    public var properties: [LuaInterfaceProperty]
}
