import FactoryScripting
import LuaBridge
import LuaInterpreter

/// One option of `factoryhost run` (and `repl`): its name, whether it takes
/// a value, and what it does to the run's settings.
///
/// `run` is read two ways — by the argument parser (``RunCommand``), and
/// without it for start-up time (``FastRunArguments``) — and both apply
/// every option through this table, so that they cannot come to mean
/// different things. The parser declares its options with these names; a
/// test runs every option through both readings and compares the settings,
/// and fails for an option the parser knows that this table does not.
enum RunOption: String, CaseIterable, Sendable {
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

    /// Applies the option (with `value`, for one that takes a value) to
    /// `settings`. False when the value is not valid: the fast reading then
    /// leaves the command line to the parser, which says why.
    func apply(_ value: String, to settings: inout RunSettings) -> Bool {
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
        case .pluginPath:
            settings.setup.pluginPaths.append(value)
        case .set:
            guard HostSetup.isAssignment(value) else { return false }
            settings.setup.valueAssignments.append(value)
        case .values:
            settings.setup.valueFiles.append(value)
        }
        return true
    }
}

extension RunSettings {
    /// The settings the argument parser read for `run` or `repl`, each
    /// option applied through ``RunOption`` as the fast reading applies it;
    /// `-e`/`-l` from `commandLine` (the whole `argv`), in order.
    init(commandLine: [String], scriptIndex: Int, sandbox: Bool, allow: [String], memoryLimit: String?, timeout: String?,
         config: String?, pluginPath: [String], values: ValueOptions) {
        self.init(runner: ScriptRunner(commandLine: commandLine, scriptIndex: scriptIndex))
        var given: [(RunOption, String)] = sandbox ? [(.sandbox, "")] : []
        given += allow.map { (.allow, $0) }
        given += [memoryLimit.map { (.memoryLimit, $0) }, timeout.map { (.timeout, $0) }, config.map { (.config, $0) }].compactMap { $0 }
        given += pluginPath.map { (.pluginPath, $0) }
        given += values.files.map { (.values, $0) } + values.assignments.map { (.set, $0) }
        for (option, value) in given {
            _ = option.apply(value, to: &self)      // the parser's validate() refused every value that cannot apply
        }
        runner.preludes = ReplCommand.preludes(commandLine)
    }
}
