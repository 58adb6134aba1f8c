import FactoryRegistry
import LuaBridge

/// A Swift plugin: types it exports to scripts (as the Lua module
/// `factoryhost.<name>`) and factories it registers in Swift.
///
/// ```swift
/// struct NetworkingPlugin: FactoryPlugin {
///     let name = "networking"
///     func install(in context: PluginContext) throws {
///         try context.export(LuaClass<Cache>().constructor { Cache() })
///         try context.export(LuaClass<MovieLoader>()
///             .constructor { (cache: Cache, session: HTTPSession) in MovieLoader(cache: cache, session: session) })
///         try context.configuration("app").register(HTTPSession.self, scope: .singleton) { _ in HTTPSession() }
///     }
/// }
/// let host = try FactoryHost(plugins: [NetworkingPlugin()])
/// // in Lua: local net = require "factoryhost.networking"; net.Cache.new()
/// ```
///
/// Hosts made on several threads at once (as `factoryhost test --jobs N`
/// makes them) install the same plugin value concurrently: a plugin is
/// `Sendable` — its own state immutable, or guarded — and the compiler
/// checks it.
public protocol FactoryPlugin: Sendable {
    /// The plugin's name: its module is `factoryhost.<name>`, and Lua plugins
    /// list it in their manifest's `requires`.
    var name: String { get }
    /// The plugin's version (in ``FactoryHost/plugins``; nothing checks it yet).
    var version: String { get }
    /// What the plugin reaches outside the process (files, network, …): a
    /// sandboxed host installs it only if all of it was granted. Undeclared,
    /// it is ``PluginCapabilities/all``.
    var capabilities: PluginCapabilities { get }
    /// Whether scripts name the plugin's types plainly from the start (true,
    /// the default: a host's own plugins export the app's own types), or only
    /// once they `require "factoryhost.<name>"` (false: the stock binary's
    /// example plugins, so that `User` or `Cache` stay the user's names until a
    /// script asks for the plugin). `<name>.Type` (`koober.User`) always names one.
    var typeNamesAreGlobal: Bool { get }
    /// Exports types and registers factories.
    ///
    /// - Throws: what the plugin cannot install: an export or registration refused (a `LuaError` or `RegistryError`); the host then reports it.
    func install(in context: PluginContext) throws
}

extension FactoryPlugin {
    /// `1.0.0`, unless the plugin says.
    public var version: String { "1.0.0" }
    /// ``PluginCapabilities/all``, unless the plugin says: a sandboxed host then installs it only when given everything.
    public var capabilities: PluginCapabilities { .all }
    /// `true`, unless the plugin says: its types are named plainly from the start.
    public var typeNamesAreGlobal: Bool { true }
}
