/// The options of `factoryhost check`, and what each does to its settings
/// (both readings apply them through this table: see ``CommandOption``).
///
/// ```swift
/// var settings = CheckSettings(script: "app.lua")
/// _ = CheckOption.timeout.apply("2s", to: &settings)   // settings.timeLimit == .seconds(2)
/// ```
enum CheckOption: String, CommandOption {
    case pluginPath = "--plugin-path"
    case set = "--set"
    case values = "--values"
    case config = "--config"
    case format = "--format"
    case timeout = "--timeout"

    var repeats: Bool { ScriptInputOption(rawValue: rawValue) != nil }

    func apply(_ value: String, to settings: inout CheckSettings) -> Bool {
        if let applied = applyShared(value, to: &settings) { return applied }
        guard let format = CheckCommand.Format(rawValue: value) else { return false }     // (--format: the one of its own)
        settings.format = format
        return true
    }
}
