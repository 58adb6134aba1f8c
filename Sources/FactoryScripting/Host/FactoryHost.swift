import FactoryRegistry
import LuaBridge

/// A Lua state with the factory DSL, a registry, and the types plugins
/// export: the composition root that scripts fill and Swift resolves from.
///
/// ```swift
/// let host = try FactoryHost(plugins: [NetworkingPlugin()])
/// try host.run(file: "app.lua")                  // declares configurations
/// let container = try host.container("app-tests")
/// let loader = try container.resolve(MovieLoader.self)
/// ```
///
/// A host and its Lua state belong to the thread that created it (see
/// `LuaState.adoptCurrentThread()`); Swift factories may still be resolved
/// from any thread, while Lua factories report an error elsewhere.
public final class FactoryHost {
    /// The Lua state scripts run in.
    public let lua: LuaState
    /// Every configuration scripts and plugins declared. Reading it installs
    /// nothing: plugins given to ``installWhenNeeded(_:)`` are installed by
    /// the first DSL call, ``container(_:)`` or ``installPendingPlugins()``,
    /// each of which reports a plugin that failed.
    public var registry: Registry { storedRegistry }
    /// The types scripts can name: those of the plugins installed so far
    /// (call ``installPendingPlugins()`` first for the deferred ones).
    public var types: TypeCatalog { storedTypes }
    /// The configuration unqualified `resolve "X"` calls use (`run --config`).
    public var defaultConfiguration: String?
    /// Told of every value a script resolves (`resolve "X"`, `c:resolve "X"`),
    /// with the registration that built it and the container: how the REPL
    /// knows where an object at its prompt came from.
    /// (While it is set, `c:resolve` answers nothing from its memo of built
    /// singletons, so the watcher hears every call.)
    public var onScriptResolve: ((Registration?, Container, Any) -> Void)? {
        didSet { lua.memoizing = onScriptResolve == nil }
    }
    /// The container unqualified `resolve` calls use now, if one was made.
    public var currentContainer: Container? { defaultContainer }
    /// The plugins installed so far, in order (Swift plugins first, then Lua
    /// ones); deferred ones appear once ``installPendingPlugins()`` ran.
    public var plugins: [(name: String, version: String)] { pluginInstaller.installedPlugins }

    let storedRegistry: Registry
    let storedTypes: TypeCatalog
    /// The plugins: installed, deferred, refused, and their modules.
    private(set) lazy var pluginInstaller = PluginInstaller(host: self)

    /// What a dry run (``beginDryRun()``) learns, for `check` and `graph`;
    /// nil outside one.
    var checkSession: CheckSession?
    /// A dry run (``beginDryRun()``): nothing with side effects runs, and
    /// creating a container stops the script (`check` and `graph` construct nothing).
    public var isDryRun: Bool { checkSession != nil }

    /// The configuration values scripts declare and factories receive
    /// (`value "baseURL" { … }`, `deps = { url = value "baseURL" }`).
    public private(set) lazy var values = ConfigurationValues()     // made when first used
    /// What each `value "name"` call returned, by function (weak keys): how
    /// `deps` tells a value from a function.
    var valueReferences: LuaTable?
    /// Every value a registration's `deps` names, for check.
    var valueUses: [(name: String, user: String, origin: Origin)] = []

    /// How many unnamed set contributions each place declared, for their names.
    private var contributionsAt: [Origin: Int] = [:]

    /// The name of an unnamed set contribution declared at `origin`: the
    /// place, then `place/2`, `place/3` for more at one place (a loop).
    func contributionName(at origin: Origin) -> String {
        let count = (contributionsAt[origin] ?? 0) + 1
        contributionsAt[origin] = count
        return count == 1 ? "\(origin)" : "\(origin)/\(count)"
    }

    /// How many Lua factories are running now (nested), for telling a
    /// finalizer's resolve from the running factory's own.
    var runningLuaFactories = 0

    /// The metatable of the `deps` table a Lua factory's `make` receives (made at the first build).
    var storedDependenciesMetatable: LuaTable?
    /// The assisted factories built so far, as weak keys: how a generated
    /// method knows it was called on one (`factory:method(…)`).
    var assistedInstances: LuaTable?
    /// How many assisted factories were built: each one's identity.
    var assistedInstanceCount = 0
    /// When set, called after each instance a script's factory builds, with
    /// the container it was built for and the registration built (its key,
    /// origin, and the configuration that declared it):
    /// `factoryhost test --coverage` records what was built.
    ///
    /// ```swift
    /// host.onScriptBuild = { container, registration in built.insert("\(registration.configuration) \(registration.key)") }
    /// ```
    public var onScriptBuild: ((_ container: Container, _ registration: Registration) -> Void)?
    /// How long the project file's Lua may run (``addProjectModuleDirectories(forScript:)``):
    /// 2 s, or what a command's deadline leaves if less.
    public var projectFileTimeLimit: Duration = .seconds(2)
    /// Registrations scripts made, to report any that reach no configuration.
    var specs: [RegistrationSpec] = []
    /// The file of the last declaration's origin, shared by the next ones
    /// in the same file.
    let originFiles = LuaStringCache()
    /// The same file, as the Lua string declarations are bound to.
    let originFilesPushed = LuaPushedString()
    /// Keys scripts resolved, parsed (see ``parsedKey(_:)``).
    var parsedKeys: [String: ScriptKey] = [:]
    /// Userdata already handed to Lua, kept weakly: the one a Lua factory
    /// returned last, and each factory dependency's (see ``LuaObjectCache``).
    let objectCache: LuaObjectCache
    private var defaultContainer: Container?

    /// What Swift plugins may reach: a plugin needing more is not installed
    /// (its module raises an error naming what is missing). Everything for a
    /// standard host; nothing, unless granted, for a sandboxed one.
    public let grantedCapabilities: PluginCapabilities
    /// Whether the host runs untrusted code (the restricted library): it reads no project file.
    let isSandboxed: Bool

    /// A host with `plugins` installed and the DSL's globals defined. A
    /// `.sandboxed` host installs only plugins that reach nothing outside the
    /// process, unless `granting` says more (see ``PluginCapabilities``).
    ///
    /// - Throws: a `LuaError` when the state or the DSL cannot be set up; what installing a plugin threw.
    public init(plugins: [any FactoryPlugin] = [], libraries: LuaState.Libraries = .standard,
                granting: PluginCapabilities? = nil) throws {
        grantedCapabilities = granting ?? (libraries == .sandboxed ? [] : .all)
        isSandboxed = libraries == .sandboxed
        lua = try LuaState(libraries: libraries)
        storedRegistry = Registry()
        storedTypes = TypeCatalog()
        objectCache = try LuaObjectCache(in: lua)
        // The host's own classes leave their plain names to scripts (an `interface "Scope"` of the user's):
        // they are factoryhost.Container and factoryhost.Scope.
        storedTypes.namesWaitForRequire(of: "factoryhost")
        try storedTypes.addClass(making: { [unowned self] in self.containerClass() }, exporter: "factoryhost", plugin: "factoryhost")
        try storedTypes.addClass(making: { [unowned self] in self.scopeClass() }, exporter: "factoryhost", plugin: "factoryhost")
        storedTypes.builtObjects = (objectCache, try objectCache.newSlot())
        try installDSL()
        try installTypeIntrospection()
        // A factory's failure raised into another factory's `make` reads as its message alone: the
        // failure wrapping it says in which configuration and where it was registered. With its
        // resolution path and origin on each, a chain of 200 providers ended in 18 KB of detail
        // lines, and the cause — at the innermost — was cut from the message.
        lua.raisedErrorText = { [weak self] error in
            guard let self, self.runningLuaFactories > 0, let failure = error as? RegistryError,
                  failure.kind == .factoryFailed else { return nil }
            return failure.message
        }
        for plugin in plugins { try install(plugin) }
    }

    /// Installs a Swift plugin: its types, its module, its factories — unless
    /// it reaches what ``grantedCapabilities`` does not allow; then its module
    /// raises an error saying so, and nothing of it is installed.
    ///
    /// ```swift
    /// try host.install(NetworkingPlugin())
    /// ```
    ///
    /// - Throws: what the plugin's ``FactoryPlugin/install(in:)`` threw, or a deferred plugin's failure.
    public func install(_ plugin: any FactoryPlugin) throws { try pluginInstaller.install(plugin) }

    /// The modules of the installed Swift plugins (`factoryhost.<plugin>`)
    /// and what each holds, sorted by name: what `factoryhost types` tells
    /// editors about. Installs the deferred plugins first.
    ///
    /// ```swift
    /// for module in try host.pluginModules() { print(module.name, module.entries.map(\.name)) }
    /// ```
    ///
    /// - Throws: what installing the deferred plugins threw.
    public func pluginModules() throws -> [PluginModule] { try pluginInstaller.pluginModules() }

    /// Installs `plugins` the first time anything needs them — a script's
    /// first DSL call or `require` of a plugin module, or Swift's call of
    /// ``container(_:)``, ``check(_:)``, ``pluginModules()`` or
    /// ``installPendingPlugins()`` (reading ``registry`` or ``types`` installs
    /// nothing) — so that a script which
    /// never does pays nothing for them at start-up. Installing them all at
    /// once then is the same as ``install(_:)`` one by one now.
    ///
    /// ```swift
    /// let host = try FactoryHost()
    /// try host.installWhenNeeded([NetworkingPlugin(), PersistencePlugin()])
    /// try host.run("print 'no plugin needed'", name: "quick.lua")   // installs nothing
    /// ```
    ///
    /// - Throws: a `LuaError` when the modules' loaders cannot be added to the state.
    public func installWhenNeeded(_ plugins: [any FactoryPlugin]) throws { try pluginInstaller.installWhenNeeded(plugins) }

    /// Installs the plugins ``installWhenNeeded(_:)`` deferred (if any), or
    /// reports why that failed.
    ///
    /// ```swift
    /// try host.installPendingPlugins()
    /// ```
    ///
    /// - Throws: what a deferred plugin's ``FactoryPlugin/install(in:)`` threw (again, on every later call).
    public func installPendingPlugins() throws { try pluginInstaller.installPendingPlugins() }

    /// ``installPendingPlugins()`` for a script's call: a failure is raised
    /// at the script's line (`level` 1: the caller of the function running
    /// `frame`; 2 for a `require` loader, which `require` calls).
    ///
    /// ```swift
    /// let isA = try lua.frameFunction("is_a") { frame in
    ///     try host.installPendingPlugins(for: frame)     // "spec.lua:3: <why the plugin failed>"
    ///     …
    /// }
    /// ```
    ///
    /// - Throws: a `LuaRaise` naming the script's line, with what installing the deferred plugins threw.
    public func installPendingPlugins(for frame: LuaFrame, level: Int32 = 1) throws {
        try pluginInstaller.installPendingPlugins(for: frame, level: level)
    }

    // MARK: Running scripts

    /// Runs the script at `path` (errors carry Lua's message and traceback),
    /// then checks that every registration it made reached a configuration.
    /// As under `factoryhost run`, its `require` finds modules beside it and
    /// those of its project (``ProjectFile``).
    ///
    /// ```swift
    /// try host.run(file: "Scripts/app.lua")      // require "app_config" finds Scripts/app_config.lua
    /// ```
    ///
    /// - Throws: a `LuaError` carrying the script's error (message, traceback, the value it raised), or `.runtime` for a registration that reached no configuration.
    public func run(file path: String) throws {
        try addModuleDirectory(of: path)
        _ = try lua.runFile(path)
        try finishScript()
    }

    /// Runs `code` as a chunk named `name`; returns its results.
    ///
    /// - Throws: a `LuaError` carrying the script's error (message, traceback, the value it raised), or `.runtime` for a registration that reached no configuration.
    @discardableResult
    public func run(_ code: String, name: String) throws -> [LuaValue] {
        let results = try lua.run(code, name: name)
        try finishScript()
        return results
    }

    /// Fails if a script made a registration that reached no configuration.
    ///
    /// - Throws: a `LuaError` (`.runtime`) naming a registration that reached no configuration.
    public func finishScript() throws {
        if let lost = unaddedRegistrations().first {
            throw LuaError(.runtime, lost.origin.map { "\($0): " } .map { $0 + lost.description } ?? lost.description)
        }
    }

    /// Registrations made so far that reached no configuration (`register`
    /// written outside one): `run` fails on the first at the end, `check`
    /// reports each, the REPL notes each after the line that made it.
    public func unaddedRegistrations() -> [RegistryError] {
        if checkSession?.scriptFailed == true { return [] }
        // Cut short by the time limit or a side effect (inside a configuration's body, say): what it
        // registered may never have reached the configuration it was written in — not a stray.
        if let reason = checkSession?.stop?.reason, reason == .timeLimit || reason == .sideEffect { return [] }
        return specs.filter { !$0.added }.map { spec in
            RegistryError(.invalidRegistration,
                          "register \"\(spec.key)\" is not inside any configuration, so nothing uses it",
                          details: ["registered at \(spec.origin)",
                                    "put it in a configuration: configuration \"app\" { register \"\(spec.key)\" { … } }"],
                          origin: spec.origin)
        }
    }

    // MARK: Containers

    /// A new container of configuration `name` (the same as scripts get
    /// from `container "name"`).
    ///
    /// - Throws: what `Registry.container(_:disposer:)` throws (`RegistryError`: `.unknownConfiguration`, a structural problem, an eager singleton's failure); what installing deferred plugins threw.
    public func container(_ name: String) throws -> Container {
        try installPendingPlugins()
        return try storedRegistry.container(name, disposer: self)
    }

    /// Makes unqualified `resolve "X"` calls use `container` until the next
    /// call (`nil`: back to a container of ``defaultConfiguration``) — how
    /// the test runner gives every test a fresh container.
    ///
    /// ```swift
    /// host.useContainer(try host.container("app-tests"))
    /// try host.run("local c = resolve 'Cache'", name: "t.lua")
    /// ```
    public func useContainer(_ container: Container?) {
        defaultContainer = container
    }

    /// Whether unqualified `resolve` calls use `container` now.
    func isDefaultContainer(_ container: Container) -> Bool {
        defaultContainer.map { $0 === container } ?? false
    }

    /// `container` as scripts hold one (`c:resolve "X"`, `c:openScope "s"`).
    ///
    /// - Throws: a `LuaError` when the host's Lua state refuses (out of memory, say).
    public func scriptValue(for container: Container) throws -> LuaValue {
        .userdata(try lua.pushObject(ScriptContainer(container), type: try containerType()))
    }

    /// The configuration plain `resolve` uses: the chosen one
    /// (``defaultConfiguration``), else the only one the scripts defined.
    public var configurationInUse: String? {
        if let defaultConfiguration { return defaultConfiguration }
        let names = registry.configurationNames
        return plainResolveUsesOnlyConfiguration && names.count == 1 ? names[0] : nil
    }

    /// Whether plain `resolve` without a chosen configuration uses the only
    /// one defined (true); the test runner says false — a test without a config
    /// has no container, and one built behind its back would outlive it.
    public var plainResolveUsesOnlyConfiguration = true

    /// How a user chooses the configuration plain `resolve` uses, for the
    /// message when none is chosen: "run with --config NAME" (the REPL says `:use NAME`).
    public var configurationAdvice = "run with --config NAME"

    /// Adds to ``configurationAdvice`` when `--config` stands among the
    /// script's own arguments (`factoryhost run app.lua --config x`): there
    /// it went to the script's `arg`, as lua5.4 passes what follows a script.
    ///
    /// ```swift
    /// host.noteMisplacedOptions(in: ["--config", "app-tests"], command: "repl")
    /// ```
    public func noteMisplacedOptions(in scriptArguments: [String], command: String) {
        guard scriptArguments.contains(where: { $0 == "--config" || $0.hasPrefix("--config=") }) else { return }
        misplacedOptionsNote = " (the --config after the script went to the script's arg: options come before the script, "
            + "factoryhost \(command) --config NAME script.lua)"
    }
    private var misplacedOptionsNote = ""

    /// The container unqualified `resolve` calls use: one of
    /// ``defaultConfiguration``, made on first use.
    func sharedContainer() throws -> Container {
        if let defaultContainer { return defaultContainer }
        guard let name = configurationInUse else {
            let names = registry.configurationNames
            throw RegistryError(.unknownConfiguration,
                                "resolve needs a configuration: \(configurationAdvice), or resolve from a container "
                                + "(container \"name\"):resolve(…)"
                                + (names.isEmpty ? "" : " — configurations: \(names.joined(separator: ", "))") + misplacedOptionsNote)
        }
        let container = try registry.container(name, disposer: self)
        defaultContainer = container
        return container
    }

    /// The registry key a script writes as `Type` or `Type#name`.
    ///
    /// - Throws: a `LuaError` (`.typeMismatch`) for text that is not a key, or names a type scripts do not know.
    public func serviceKey(parsing text: String) throws -> ServiceKey {
        try ScriptKey(parsing: text, catalog: types).serviceKey
    }

    // MARK: Declarations

    /// What scripts have declared so far (configurations, registrations,
    /// scopes, interfaces), to go back to with ``restoreDeclarations(_:)``.
    public struct Declarations {
        let registry: Registry.Snapshot
        let specCount: Int
        let interfaces: Set<String>
        /// The plugins whose type names were still waiting for a `require`.
        let waitingPlugins: Set<String>
        let scriptValues: (declarations: [String: ConfigurationValues.Declaration], given: [String: ConfigurationValues.Given])
        let valueUseCount: Int
    }

    /// The declarations as they are now: the test runner takes them after a
    /// spec file loads and restores them after every test.
    ///
    /// ```swift
    /// let declared = host.declarations()
    /// try host.run("configuration 'scratch' { }", name: "test.lua")
    /// try host.restoreDeclarations(declared)          // 'scratch' is gone
    /// ```
    public func declarations() -> Declarations {
        Declarations(registry: registry.snapshot(), specCount: specs.count, interfaces: types.scriptInterfaceNames,
                     waitingPlugins: types.waitingPluginNames, scriptValues: values.scriptState, valueUseCount: valueUses.count)
    }

    /// Forgets every declaration made since `declarations` was taken.
    ///
    /// - Throws: a `RegistryError` (`.invalidRegistration`) for declarations taken of another host.
    public func restoreDeclarations(_ declarations: Declarations) throws {
        try registry.restore(declarations.registry)
        if specs.count > declarations.specCount { specs.removeLast(specs.count - declarations.specCount) }
        // Interfaces declared since are gone too, and keys parsed with them.
        if types.removeScriptInterfaces(keeping: declarations.interfaces) { parsedKeys.removeAll() }
        // Plugin names a test's require revealed are the test's (its package.loaded entry goes too).
        if types.hide(plugins: declarations.waitingPlugins) { parsedKeys.removeAll() }
        values.scriptState = declarations.scriptValues
        if valueUses.count > declarations.valueUseCount { valueUses.removeLast(valueUses.count - declarations.valueUseCount) }
    }

    // MARK: Checking

    /// Every problem of every configuration (or just `configuration`), found
    /// from declarations alone, plus registrations that reached none — the
    /// deferred plugins' registrations too (installed first).
    ///
    /// - Throws: what installing the deferred plugins threw.
    public func check(_ configuration: String? = nil) throws -> [RegistryError] {
        try check(configuration, stoppingAfter: .max).problems
    }

    /// ``check(_:)``, stopping after `limit` problems (`stopped` says so):
    /// time and memory stay bounded whatever the script declares.
    ///
    /// - Throws: what installing the deferred plugins threw.
    public func check(_ configuration: String? = nil, stoppingAfter limit: Int) throws -> (problems: [RegistryError], stopped: Bool) {
        try installPendingPlugins()
        var (problems, stopped) = configuration.map { registry.validate($0, stoppingAfter: limit) } ?? registry.validate(stoppingAfter: limit)
        problems += unaddedRegistrations() + values.problems(uses: valueUses)
        if problems.count > limit {
            problems.removeLast(problems.count - limit)
            stopped = true
        }
        return (problems, stopped)
    }

    /// Lets scripts `require` modules beside the script at `path`, then the
    /// modules of its project (the folders its ``ProjectFile`` names; none in a
    /// sandboxed host) — searched after the stock `package.path`, as `factoryhost run` does.
    ///
    /// - Throws: a `LuaError` when the host's Lua state refuses (out of memory, say), or the project file is bad.
    public func addModuleDirectory(of path: String) throws {
        try appendModulePath(Self.folder(ofScript: path))
        try addProjectModuleDirectories(forScript: path)
    }

    /// Lets scripts `require` the modules of the project that governs the script
    /// at `path` (`-`, standard input: the working directory's) — the nearest
    /// ``ProjectFile`` in its folder or above; nothing in a sandboxed host.
    ///
    /// ```swift
    /// try host.addProjectModuleDirectories(forScript: "spec/cart_spec.lua")   // finds ./.factoryhost.lua
    /// ```
    ///
    /// - Throws: a `LuaError` naming the project file when it is bad, or when the host's Lua state refuses.
    public func addProjectModuleDirectories(forScript path: String) throws {
        guard !isSandboxed,
              let project = try ProjectFile.governing(directory: path == "-" ? "./" : Self.folder(ofScript: path),
                                                      timeLimit: projectFileTimeLimit) else { return }
        for folder in project.moduleDirectories { try appendModulePath(folder) }
    }

    /// The folder of the script at `path`, ending in `/` (`./` for a bare name).
    private static func folder(ofScript path: String) -> String {
        path.lastIndex(of: "/").map { String(path[...$0]) } ?? "./"
    }

    /// Appends `dir?.lua;dir?/init.lua` to `package.path` unless it is there.
    private func appendModulePath(_ dir: String) throws {
        guard case .table(let package) = try lua.global("package"),
              case .string(let current) = try package.rawGet("path") else { return }
        let extra = "\(dir)?.lua;\(dir)?/init.lua"
        // A byte search (String's `contains` costs a tenth of a millisecond at start-up).
        let path = Array(current.description.utf8), wanted = Array(extra.utf8)
        if path.count >= wanted.count,
           (0...(path.count - wanted.count)).contains(where: { path[$0..<($0 + wanted.count)].elementsEqual(wanted) }) { return }
        try package.rawSet("path", LuaValue(current.description + ";" + extra))
    }

    /// The Lua type name of script containers, installed on first use.
    func containerType() throws -> String {
        _ = try types.classTable(ScriptContainer.luaTypeName, in: lua)
        return ScriptContainer.luaTypeName
    }

    func stopForCheck(_ frame: LuaFrame, _ what: String) -> Error {
        stopDryRun(.container, at: frame.location(level: 1),
                   reason: "\(what): check and graph build nothing, so declarations end here")
    }
}
