/// A Swift plugin's Lua module as scripts `require` it: its name and what
/// it holds (see ``FactoryHost/pluginModules()``).
///
/// ```swift
/// let networking = try host.pluginModules().first { $0.name == "factoryhost.networking" }
/// networking?.entries.filter { $0.kind == .class }.map(\.name)   // ["Cache", "HTTPSession", …]
/// ```
public struct PluginModule: Sendable, Equatable {
    /// An entry of the module: `net.Cache`, `net.AuthRemoteAPI`, `db.openStore`.
    public struct Entry: Sendable, Equatable {
        /// Its name in the module (`Cache`).
        public var name: String
        /// A class, an interface or a function.
        public var kind: ModuleEntryKind
    }

    /// `factoryhost.<plugin>`.
    public var name: String
    /// In the order the plugin exported them.
    public var entries: [Entry]
}

/// What a plugin module's entry is.
public enum ModuleEntryKind: String, Sendable {
    /// An exported class: its class table (`new`, class functions).
    case `class`
    /// An exported interface: `{ name, requires, implement }`.
    case interface
    /// A module function (``PluginContext/function(_:_:)``).
    case function
}
