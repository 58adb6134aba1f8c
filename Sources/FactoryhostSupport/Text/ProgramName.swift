/// The name a command-line host calls itself in its messages
/// (`shop: app.lua:3: boom`), its REPL banner, its history folder and its help:
/// `factoryhost` for the stock binary, the host's own name for a custom one.
package enum ProgramName {
    /// nonisolated(unsafe): written once, by `FactoryHostCLI.main` before any command runs or any
    /// thread starts; only read afterwards.
    nonisolated(unsafe) package static var current = "factoryhost"
}
