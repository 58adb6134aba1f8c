import FactoryRegistry
import LuaBridge

/// What a ``FactoryPlugin`` installs itself through: exported types (which
/// make up its Lua module), module functions, and Swift factories.
///
/// ```swift
/// func install(in context: PluginContext) throws {
///     try context.export(LuaClass<UserSession>().namedConstructor { UserSession(user: try $0.required("user")) })
///     try context.export(LuaInterface<any AuthRemoteAPI>("AuthRemoteAPI", requires: ["signIn"]) { LuaAuthRemoteAPI($0) })
///     try context.configuration("app").register(Clock.self, scope: .singleton) { _ in SystemClock() }
/// }
/// ```
public final class PluginContext {
    /// The plugin being installed.
    public let pluginName: String
    /// The host's registry.
    public let registry: Registry
    let catalog: TypeCatalog
    /// The module's entries, built when a script first requires it.
    var entries: [Entry] = []

    /// An entry of the module: its name, how to make its value, and — for a
    /// class — how to make just its shape, for check's stopped copy of a
    /// plugin that reaches outside the process (see `TypeCatalog.classShape`).
    struct Entry {
        let name: String
        let kind: ModuleEntryKind
        let make: (LuaState) throws -> LuaValue
        var shape: ((LuaState, LuaFunction) throws -> LuaValue)? = nil
    }

    init(pluginName: String, registry: Registry, catalog: TypeCatalog) {
        self.pluginName = pluginName
        self.registry = registry
        self.catalog = catalog
    }

    /// Exports a Swift class: scripts can name it in registrations, and the
    /// module has its class table (`net.MovieLoader.new(…)`). The description
    /// is made when a script first uses the class (or completion lists its
    /// members), so a plugin of many classes costs little at start-up:
    ///
    /// ```swift
    /// try context.export(MovieLoader.luaClass)   // evaluated on first use
    /// ```
    ///
    /// - Throws: a `LuaError` when the class name is taken by another export.
    public func export<T: LuaExportable>(_ description: @autoclosure @escaping () -> LuaClass<T>) throws {
        try catalog.addClass(making: description, exporter: "plugin '\(pluginName)'", plugin: pluginName)
        let catalog = self.catalog
        entries.append(Entry(name: T.luaTypeName, kind: .class, make: { .table(try catalog.classTable(T.luaTypeName, in: $0)) },
                             shape: { .table(try catalog.classShape(T.luaTypeName, in: $0, placeholder: $1)) }))
    }

    /// Exports a Swift protocol as an interface: scripts can register it and
    /// implement it with tables; the module has `{ name, requires, implement }`.
    ///
    /// - Throws: a `LuaError` when the interface name is taken by another export.
    public func export<P>(_ interface: LuaInterface<P>) throws {
        try catalog.addInterface(interface, exporter: "plugin '\(pluginName)'", plugin: pluginName)
        entries.append(Entry(name: interface.name, kind: .interface, make: { state in
            let table = try state.newTable()
            try table.rawSet("name", LuaValue(interface.name))
            try table.rawSet("requires", try interface.requiredMethods.toLua(in: state))
            try table.rawSet("implement", .function(state.frameFunction("\(interface.name).implement") { frame in
                _ = try interface.argument(frame, 1)
                try frame.push(frame.value(1))
                return 1
            }))
            return .table(table)
        }))
    }

    /// A function in the module (`db.openStore(…)`).
    public func function(_ name: String, _ body: @escaping LuaFrameFunction) {
        let qualified = "\(pluginName).\(name)"
        entries.append(Entry(name: name, kind: .function, make: { .function(try $0.frameFunction(qualified, body)) }))
    }

    /// The configuration `name`, defined now if no one has defined it yet —
    /// where the plugin registers its Swift factories.
    ///
    /// - Throws: a `RegistryError` (`.invalidRegistration`) for an empty name.
    public func configuration(_ name: String, file: String = #fileID, line: Int = #line) throws -> Configuration {
        if let existing = registry.configuration(name) { return existing }
        return try registry.defineConfiguration(name, extends: nil, origin: Origin(file: file, line: line))
    }
}
