import FactoryScripting
import FactoryhostSupport
import LuaBridge
import LuaInterpreter

/// The plain forms of `factoryhost repl` (the same options as `run`, then
/// an optional script and its arguments), started without the argument
/// parser, so the first prompt comes as soon as `run`'s script would start.
/// `--help` and anything unusual go through the parser.
enum FastReplArguments {
    static func start(_ argv: [String]) -> Int32? {
        guard argv.count >= 2, argv[1] == "repl" else { return nil }
        // The REPL reads its script, arguments and statements as text.
        RawArguments.refuseWordsThatAreNotText(argv, program: ProgramName.current, command: "repl")
        // Reuse run's parsing: the same options, with the script made optional.
        var probe = argv
        probe[1] = "run"
        var settings = FastRunArguments.parse(probe)
        if settings == nil {
            // No script (nor -e/-l): parse again with a stand-in, which must be what ends the options.
            guard let withStandIn = FastRunArguments.parse(probe + ["-"]),
                  withStandIn.runner.scriptIndex == probe.count else { return nil }
            settings = withStandIn
        }
        guard let settings else { return nil }
        let runner = settings.runner
        let hasScript = runner.scriptIndex < probe.count
        let script: String? = hasScript ? runner.commandLine[runner.scriptIndex] : nil
        let arguments = hasScript ? Array(runner.commandLine[(runner.scriptIndex + 1)...]) : []
        // Options that take a value were consumed by the parse; a script of "-" needs a terminal.
        if script == "-" && isatty(0) == 0 { return nil }
        return ReplCommand.start(script: script, arguments: arguments, configuration: settings.configuration,
                                 pluginPaths: settings.setup.pluginPaths, sandbox: runner.libraries == .sandboxed,
                                 granted: settings.setup.granted, memoryLimit: runner.memoryLimit,
                                 timeLimit: runner.timeLimit, preludes: runner.preludes,
                                 values: ValueOptions.given(files: settings.setup.valueFiles, assignments: settings.setup.valueAssignments))
    }
}
