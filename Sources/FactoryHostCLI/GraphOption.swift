/// The options of `factoryhost graph`, and what each does to its settings
/// (both readings apply them through this table: see ``CommandOption``).
///
/// ```swift
/// var settings = GraphSettings(script: "app.lua")
/// _ = GraphOption.root.apply("Store", to: &settings)
/// ```
enum GraphOption: String, CommandOption {
    case config = "--config"
    case root = "--root"
    case format = "--format"
    case pluginPath = "--plugin-path"
    case timeout = "--timeout"
    case set = "--set"
    case values = "--values"

    var repeats: Bool { ScriptInputOption(rawValue: rawValue) != nil }

    func apply(_ value: String, to settings: inout GraphSettings) -> Bool {
        if let applied = applyShared(value, to: &settings) { return applied }
        if self == .root {
            settings.root = value
            return true
        }
        guard let format = GraphCommand.Format(rawValue: value) else { return false }     // (--format)
        settings.format = format
        return true
    }
}
