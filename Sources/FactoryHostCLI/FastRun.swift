import FactoryScripting
import FactoryhostSupport
import LuaBridge
import LuaInterpreter

/// `factoryhost run` with its settings, run without the argument parser
/// in its plain forms: setting the parser up costs about as much start-up
/// time as the whole Swift runtime, and `run` must start within 4× of
/// lua5.4. Everything else — help, errors, other commands — goes through
/// the argument parser as usual.
struct RunSettings: Equatable {
    var runner: ScriptRunner
    var setup = HostSetup()
    var configuration: String?

    /// Runs the script in a host and ends the process with its exit status.
    func runAndExit() -> Never {
        var setup = self.setup
        setup.libraries = runner.libraries
        let host: FactoryHost
        do {
            host = try setup.makeHost { runner.applyLimits(to: $0) }   // Lua plugins run under them too
        } catch {
            reportError(error)
            ScriptRunner.exitWithoutFinalizers(1)
        }
        host.defaultConfiguration = configuration
        let status = runner.run(in: host.lua, limitsApplied: true, finish: host.finishScript)
        // Past its limit, a script's finalizers do not run (they could loop or exit 0).
        if status != 0 && host.lua.lastCallHitLimit { ScriptRunner.exitWithoutFinalizers(status) }
        host.lua.closeAndExit(status: status)   // like lua.c: finalizers run before exit
    }
}

/// The plain forms of `factoryhost run`: known options (with valid values)
/// before the script, then the script and its arguments. Anything else
/// returns nil, and the argument parser handles (and reports) it.
enum FastRunArguments {
    static func parse(_ argv: [String]) -> RunSettings? {
        guard argv.count >= 3, argv[1] == "run" else { return nil }
        var settings = RunSettings(runner: ScriptRunner(commandLine: argv, scriptIndex: 0))
        var i = 2
        var sawAllow = false
        while i < argv.count {
            let word = argv[i]
            guard word.hasPrefix("-"), word != "-" else { break }          // the script
            let (name, inline) = PlainCommandLine.split(word)
            // --help, --, -i, -e, -l, an unknown option: the parser's job.
            guard let option = RunOption(rawValue: name) else { return nil }
            if option.takesValue {
                guard let value = PlainCommandLine.optionValue(argv, at: &i, inline: inline),
                      option.apply(value, to: &settings) else { return nil }
            } else {
                guard inline == nil, option.apply("", to: &settings) else { return nil }
            }
            sawAllow = sawAllow || option == .allow
            i += 1
        }
        guard i < argv.count else { return nil }                           // no script: the parser reports it
        if sawAllow && settings.runner.libraries != .sandboxed { return nil }  // the parser says why
        settings.runner.scriptIndex = i
        return settings
    }
}

/// The plain forms of `factoryhost repl` (the same options as `run`, then
/// an optional script and its arguments), started without the argument
/// parser, so the first prompt comes as soon as `run`'s script would start.
/// `-e`/`-l`, `--help` and anything unusual go through the parser.
enum FastReplArguments {
    static func start(_ argv: [String]) -> Int32? {
        guard argv.count >= 2, argv[1] == "repl" else { return nil }
        // Reuse run's parsing: the same options, with the script made optional.
        var probe = argv
        probe[1] = "run"
        var settings = FastRunArguments.parse(probe)
        var hasScript = settings != nil
        if settings == nil {
            // No script: parse again with a stand-in, which must be what ends the options.
            guard let withStandIn = FastRunArguments.parse(probe + ["-"]),
                  withStandIn.runner.scriptIndex == probe.count else { return nil }
            settings = withStandIn
            hasScript = false
        }
        guard let settings else { return nil }
        let runner = settings.runner
        let script: String? = hasScript ? runner.commandLine[runner.scriptIndex] : nil
        let arguments = hasScript ? Array(runner.commandLine[(runner.scriptIndex + 1)...]) : []
        // Options that take a value were consumed by the parse; a script of "-" needs a terminal.
        if script == "-" && isatty(0) == 0 { return nil }
        return ReplCommand.start(script: script, arguments: arguments, configuration: settings.configuration,
                                 pluginPaths: settings.setup.pluginPaths, sandbox: runner.libraries == .sandboxed,
                                 granted: settings.setup.granted, memoryLimit: runner.memoryLimit,
                                 timeLimit: runner.timeLimit, preludes: [],
                                 values: ValueOptions.given(files: settings.setup.valueFiles, assignments: settings.setup.valueAssignments))
    }
}
