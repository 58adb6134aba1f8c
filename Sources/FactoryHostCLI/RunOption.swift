import FactoryScripting
import LuaBridge
import LuaInterpreter

/// One option of `factoryhost run` (and `repl`): its name, whether it takes
/// a value, and what it does to the run's settings.
///
/// `run` is read two ways — by the argument parser (``RunCommand``), and
/// without it for start-up time (``FastRunArguments``) — and both apply
/// every option through this table (see ``CommandOption``). The parser
/// declares its options with these names. Every option may be given again
/// (a later `--config` wins, as in the parser).
///
/// ```swift
/// _ = RunOption.timeout.apply("2s", to: &settings)   // settings.runner.timeLimit == .seconds(2)
/// ```
enum RunOption: String, CommandOption {
    case sandbox = "--sandbox"
    case allow = "--allow"
    case memoryLimit = "--memory-limit"
    case timeout = "--timeout"
    case config = "--config"
    case pluginPath = "--plugin-path"
    case set = "--set"
    case values = "--values"

    /// The name without its dashes, as the argument parser declares it (`memory-limit`).
    var longName: String { String(rawValue.dropFirst(2)) }

    /// Whether it takes a value (`--timeout 2s`); `--sandbox` is a flag.
    var takesValue: Bool { self != .sandbox }

    var repeats: Bool { true }

    /// Applies the option (with `value`, for one that takes a value) to
    /// `settings`. False when the value is not valid: the fast reading then
    /// leaves the command line to the parser, which says why.
    func apply(_ value: String, to settings: inout RunSettings) -> Bool {
        if let shared = ScriptInputOption(rawValue: rawValue) { return shared.apply(value, to: &settings) }
        switch self {
        case .sandbox:
            settings.runner.libraries = .sandboxed
        case .allow:
            guard let granted = try? PluginCapabilities(parsing: value) else { return false }
            settings.setup.granted.formUnion(granted)
        case .memoryLimit:
            guard let bytes = Limits.bytes(value) else { return false }
            settings.runner.memoryLimit = bytes
        case .timeout:
            guard let duration = Limits.duration(value) else { return false }
            settings.runner.timeLimit = duration
        case .config:
            settings.configuration = value
        case .pluginPath, .set, .values:
            return false                                    // (shared: applied above)
        }
        return true
    }
}

extension RunSettings: ScriptInputSettings {
    var pluginPaths: [String] {
        get { setup.pluginPaths }
        set { setup.pluginPaths = newValue }
    }
    var valueFiles: [String] {
        get { setup.valueFiles }
        set { setup.valueFiles = newValue }
    }
    var valueAssignments: [String] {
        get { setup.valueAssignments }
        set { setup.valueAssignments = newValue }
    }
}

extension RunSettings {
    /// The settings the argument parser read for `run` or `repl`, each
    /// option applied through ``RunOption`` as the fast reading applies it;
    /// `-e`/`-l` from `commandLine` (the whole `argv`), in order.
    init(commandLine: [String], scriptIndex: Int, sandbox: Bool, allow: [String], memoryLimit: String?, timeout: String?,
         config: String?, pluginPath: [String], values: ValueOptions) {
        self.init(runner: ScriptRunner(commandLine: commandLine, scriptIndex: scriptIndex))
        RunOption.apply([(.sandbox, sandbox ? [""] : []), (.allow, allow), (.memoryLimit, memoryLimit.map { [$0] } ?? []),
                         (.timeout, timeout.map { [$0] } ?? []), (.config, config.map { [$0] } ?? []), (.pluginPath, pluginPath),
                         (.values, values.files), (.set, values.assignments)], to: &self)
        runner.preludes = ReplCommand.preludes(commandLine)
    }
}
