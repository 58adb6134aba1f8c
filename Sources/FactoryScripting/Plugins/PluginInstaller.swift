import FactoryRegistry
import FactoryhostSupport
import LuaBridge

/// A host's plugins: the Swift plugins installed, deferred (installed the
/// first time anything needs them) and refused for capabilities not granted;
/// the module each gives `require` (`factoryhost.<plugin>`) and what it
/// reaches; and the names Lua plugins are checked against.
/// ``FactoryHost`` forwards its plugin API here.
///
/// ```swift
/// let host = try FactoryHost()
/// try host.installWhenNeeded([NetworkingPlugin()])   // host.plugins is empty until a script needs it
/// ```
final class PluginInstaller {
    unowned let host: FactoryHost
    /// What Swift plugins may reach (see ``FactoryHost/grantedCapabilities``).
    var grantedCapabilities: PluginCapabilities { host.grantedCapabilities }
    /// The plugins installed so far, in order (Swift plugins first, then Lua ones).
    private(set) var installedPlugins: [(name: String, version: String)] = []
    /// Plugins to install the first time anything needs them.
    private var pendingPlugins: [any FactoryPlugin] = []
    /// Why installing the deferred plugins failed (reported by every later use).
    private var pluginFailure: Error?
    /// Each Swift plugin module's entries, by module name.
    private var moduleEntries: [String: [PluginContext.Entry]] = [:]
    /// What each Swift plugin module reaches outside the process, by module name.
    private var moduleCapabilities: [String: PluginCapabilities] = [:]
    /// The module tables built so far (on first `require`), by module name.
    private var modules: [String: LuaTable] = [:]
    /// Every plugin module `require` can load (`factoryhost.networking`, …).
    private var pluginModuleNames: [String] = []
    /// The plugins refused for capabilities not granted, by module name.
    private var refusedPlugins: [String: (plugin: String, missing: PluginCapabilities)] = [:]

    init(host: FactoryHost) { self.host = host }

    /// Installs a Swift plugin: its types, its module, its factories — unless
    /// it reaches what ``grantedCapabilities`` does not allow; then its module
    /// raises an error saying so, and nothing of it is installed.
    ///
    /// - Throws: what the plugin's ``FactoryPlugin/install(in:)`` threw, or a deferred plugin's failure.
    func install(_ plugin: any FactoryPlugin) throws {
        try installPendingPlugins()
        if try refuseIfNotGranted(plugin) { return }
        try installNow(plugin)
    }

    /// Whether `plugin` needs capabilities that were not granted; if so its
    /// module is made to raise an error that says which and how to grant them.
    private func refuseIfNotGranted(_ plugin: any FactoryPlugin) throws -> Bool {
        let missing = plugin.capabilities.subtracting(grantedCapabilities)
        guard !missing.isEmpty else { return false }
        let module = "factoryhost.\(plugin.name)"
        guard refusedPlugins[module] == nil else { return true }
        refusedPlugins[module] = (plugin.name, missing)
        let message = "module '\(module)' is not available in the sandbox: the \(plugin.name) plugin \(missing.meaning)"
            + " (grant it with --allow \(PluginCapabilities.named.filter { missing.contains($0.capability) }.map(\.name).joined(separator: ",")))"
        let loader = try host.lua.frameFunction("require '\(module)'") { frame in
            throw LuaRaise(frame.location(level: 2) + message)
        }
        guard case .table(let package) = try host.lua.global("package"),
              case .table(let preload) = try package.rawGet("preload") else { return true }
        try preload.rawSet(LuaValue(module), .function(loader))
        return true
    }

    /// Why a plugin named `name` is not installed, if the sandbox refused it.
    func refusal(ofPlugin name: String) -> String? {
        guard let refused = refusedPlugins["factoryhost.\(name)"] else { return nil }
        return "the sandbox refused it: it \(refused.missing.meaning) (grant with --allow "
            + PluginCapabilities.named.filter { refused.missing.contains($0.capability) }.map(\.name).joined(separator: ",") + ")"
    }

    private func installNow(_ plugin: any FactoryPlugin) throws {
        if installedPlugins.contains(where: { $0.name == plugin.name }) {
            throw LuaError(.runtime, "plugin '\(plugin.name)' is installed twice")
        }
        if !plugin.typeNamesAreGlobal { host.storedTypes.namesWaitForRequire(of: plugin.name) }
        let context = PluginContext(pluginName: plugin.name, registry: host.storedRegistry, catalog: host.storedTypes)
        try plugin.install(in: context)
        let module = "factoryhost.\(plugin.name)"
        if moduleEntries[module] == nil { try addPreloadEntry(module) }
        moduleEntries[module] = context.entries
        moduleCapabilities[module] = plugin.capabilities
        pluginInstalled(plugin.name, plugin.version)
    }

    /// The modules of the installed Swift plugins (`factoryhost.<plugin>`)
    /// and what each holds, sorted by name: what `factoryhost types` tells
    /// editors about. Installs the deferred plugins first.
    ///
    /// ```swift
    /// for module in try host.pluginModules() { print(module.name, module.entries.map(\.name)) }
    /// ```
    ///
    /// - Throws: what installing the deferred plugins threw.
    func pluginModules() throws -> [PluginModule] {
        try installPendingPlugins()
        return moduleEntries.keys.sorted().map { name in
            PluginModule(name: name, entries: (moduleEntries[name] ?? []).map { PluginModule.Entry(name: $0.name, kind: $0.kind) })
        }
    }

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
    func installWhenNeeded(_ plugins: [any FactoryPlugin]) throws {
        for plugin in plugins {
            if try refuseIfNotGranted(plugin) { continue }
            let module = "factoryhost.\(plugin.name)"
            if moduleEntries[module] == nil && !pendingPlugins.contains(where: { $0.name == plugin.name }) {
                try addPreloadEntry(module)
            }
            pendingPlugins.append(plugin)
        }
    }

    /// Installs the plugins ``installWhenNeeded(_:)`` deferred (if any), or
    /// reports why that failed.
    ///
    /// - Throws: what a deferred plugin's ``FactoryPlugin/install(in:)`` threw (again, on every later call).
    func installPendingPlugins() throws {
        if let pluginFailure { throw pluginFailure }
        guard !pendingPlugins.isEmpty else { return }
        let plugins = pendingPlugins
        pendingPlugins = []
        do {
            for plugin in plugins { try installNow(plugin) }
        } catch {
            pluginFailure = error
            throw error
        }
    }

    /// The names of the plugins installed and of those deferred, without
    /// installing any.
    var pluginNames: [String] { installedPlugins.map(\.name) + pendingPlugins.map(\.name) }

    /// ``installPendingPlugins()`` for a script's call: a failure is raised
    /// at the script's line (`level` 1: the caller of the function running
    /// `frame`; 2 for a `require` loader, which `require` calls).
    ///
    /// ```swift
    /// let isA = try host.lua.frameFunction("is_a") { frame in
    ///     try host.installPendingPlugins(for: frame)     // "spec.lua:3: <why the plugin failed>"
    ///     …
    /// }
    /// ```
    ///
    /// - Throws: a `LuaRaise` naming the script's line, with what installing the deferred plugins threw.
    func installPendingPlugins(for frame: LuaFrame, level: Int32 = 1) throws {
        do {
            try installPendingPlugins()
        } catch let error as LuaError {
            throw LuaRaise(frame.location(level: level) + error.message)
        }
    }

    func pluginInstalled(_ name: String, _ version: String) {
        installedPlugins.append((name, version))
    }

    /// Makes `require(name)` return the table of the module's entries (see
    /// `moduleEntries`), built on first require — after installing any
    /// deferred plugin, which is where the entries come from.
    private func addPreloadEntry(_ name: String) throws {
        let loader = try host.lua.frameFunction("require '\(name)'") { [unowned self] frame in
            try self.installPendingPlugins(for: frame, level: 2)
            // Requiring a plugin's module gives the script its types' plain names.
            self.host.types.reveal(plugin: String(name.dropFirst("factoryhost.".count)))
            if let module = self.modules[name] {
                try frame.push(.table(module))
                return 1
            }
            let entries = self.moduleEntries[name] ?? []
            var module = try self.host.lua.newTable(hashCapacity: entries.count)
            // A dry run stops at any function of a plugin that reaches outside
            // the process: its classes need only their shape, not installing.
            let reach = self.host.isDryRun ? self.moduleCapabilities[name].flatMap { $0.isEmpty ? nil : $0 } : nil
            let placeholder = try reach.map { reach in
                try self.host.lua.frameFunction("\(name) (stopped)") { [unowned self] _ in
                    throw self.host.stopDryRun(.sideEffect, at: "", reason: "\(name) \(reach.meaning), which check never does")
                }
            }
            for entry in entries {
                if let placeholder, let shape = entry.shape {
                    try module.rawSet(LuaValue(entry.name), shape(self.host.lua, placeholder))
                } else {
                    try module.rawSet(LuaValue(entry.name), entry.make(self.host.lua))
                }
            }
            if let reach {
                module = try self.host.stoppedCopy(of: module, name: name, reaching: reach)
                // Its classes are as strict as the real ones: check must fail where run would.
                for entry in entries where entry.shape != nil {
                    guard case .table(let copied) = try module.rawGet(LuaValue(entry.name)) else { continue }
                    try StrictTable.make(copied, in: self.host.lua, what: "class '\(entry.name)'")
                }
            }
            try StrictTable.make(module, in: self.host.lua, what: "module '\(name)'")
            self.modules[name] = module
            try frame.push(.table(module))
            return 1
        }
        guard case .table(let package) = try host.lua.global("package"),
              case .table(let preload) = try package.rawGet("preload") else {
            throw LuaError(.runtime, "cannot add module '\(name)': this state has no package library")
        }
        try preload.rawSet(LuaValue(name), .function(loader))
        if pluginModuleNames.isEmpty { try addPluginModuleSearcher(package) }
        if !pluginModuleNames.contains(name) { pluginModuleNames.append(name) }
    }

    /// A searcher after the others: for a `factoryhost.` name that
    /// is no plugin module (`require "factoryhost.networkin"`), require's
    /// message names the plugin modules and the one likely meant.
    private func addPluginModuleSearcher(_ package: LuaTable) throws {
        guard case .table(let searchers) = try package.rawGet("searchers") else { return }
        let searcher = try host.lua.frameFunction("plugin module searcher") { [unowned self] frame in
            guard case .string(let text) = frame.value(1), text.description.hasPrefix("factoryhost.") else { return 0 }
            let name = text.description, known = self.pluginModuleNames.sorted()
            // Compared without the common prefix, which would make any name look close.
            let prefix = "factoryhost.".count
            let meant = NameSuggestion.closest(to: String(name.dropFirst(prefix)), among: known.map { String($0.dropFirst(prefix)) })
            try frame.push(LuaValue("no plugin module '\(name)'" + (meant.map { ", did you mean 'factoryhost.\($0)'?" } ?? "")
                                    + " (plugin modules: \(MessageText.list(known)))"))
            return 1
        }
        // Last: inserted before the C searchers it would move them, and check's
        // dry run guards them by place (a library user may begin it later).
        try searchers.rawSet(.integer(try searchers.count + 1), .function(searcher))
    }
}
