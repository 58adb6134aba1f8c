import ArgumentParser
import FactoryScripting
import FactoryhostSupport
import LuaBridge
import LuaInterpreter

/// `factoryhost run script.lua [args…]`: runs a script in a host (the DSL and
/// the plugins' types); plain Lua behaves exactly as under `lua5.4`.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a Lua script (like `lua5.4 script.lua args...`).",
        discussion: """
            The script sees its arguments in `arg` and `...`, may `require` modules that \
            sit beside it, and exits with status 1 after printing any error with its \
            traceback. Use `-` to read the script from standard input.
            """
    )

    @Flag(name: .customLong(RunOption.sandbox.longName), help: "Run untrusted code: no io, os.execute/exit/getenv/remove/rename, debug, dofile/loadfile, binary chunks or C modules.")
    var sandbox = false

    @Option(name: .customLong(RunOption.allow.longName), help: ArgumentHelp(
        "With --sandbox, let Swift plugins that reach these in (files, network, processes, environment, all; comma-separated, repeatable).",
        valueName: "capabilities"), completion: .list(PluginCapabilities.named.map(\.name) + ["all"]))
    var allow: [String] = []

    @Option(name: .customLong(RunOption.memoryLimit.longName), help: ArgumentHelp("Cap the memory Lua may use (bytes, or with K, M or G).", valueName: "size"))
    var memoryLimit: String?

    @Option(name: .customLong(RunOption.timeout.longName), help: ArgumentHelp("Stop the script after this long (seconds, or with ms, s or m).", valueName: "duration"))
    var timeout: String?

    @Option(name: .customLong(RunOption.config.longName), help: ArgumentHelp("The configuration that unqualified `resolve \"X\"` calls use.", valueName: "name"))
    var config: String?

    @Option(name: .customLong(RunOption.pluginPath.longName), help: ArgumentHelp("Directories of Lua plugins (colon-separated; repeatable; also $FACTORYHOST_PLUGIN_PATH).", valueName: "dirs"), completion: .directory)
    var pluginPath: [String] = []

    @OptionGroup var valueOptions: ValueOptions

    @Flag(name: .customShort("i"), help: "After the script, enter the REPL (as lua5.4 -i).")
    var interactive = false

    @Option(name: .customShort("e"), help: ArgumentHelp("Run this statement before the script (repeatable, in order with -l; as lua5.4 -e).", valueName: "stat"))
    var execute: [String] = []

    @Option(name: .customShort("l"), help: ArgumentHelp("Require this module before the script, as global `mod` (or `g=mod`; as lua5.4 -l).", valueName: "mod"))
    var library: [String] = []

    @Argument(help: ArgumentHelp("The script to run; `-` reads standard input (optional with -e or -i).", valueName: "script"), completion: .file(extensions: ["lua"]))
    var script: String?

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("Arguments passed to the script.", valueName: "args"))
    var arguments: [String] = []

    func validate() throws {
        try HostOptions.validate(sandbox: sandbox, allow: allow, memoryLimit: memoryLimit, timeout: timeout)
        if interactive && script == "-" && isatty(0) == 0 {
            throw ValidationError("run -i -: standard input cannot be both the script and the session; give the script a file")
        }
        if script == nil && !interactive && execute.isEmpty && library.isEmpty {
            throw ValidationError("give a script to run (or -e STAT, or -i for the REPL)")
        }
    }

    /// The run's settings, each option applied through ``RunOption`` as the
    /// fast reading applies it (`commandLine`: the whole `argv`, whose words
    /// after the script are its arguments).
    func settings(commandLine: [String]) -> RunSettings {
        RunSettings(commandLine: commandLine, scriptIndex: commandLine.count - arguments.count - 1, sandbox: sandbox, allow: allow,
                    memoryLimit: memoryLimit, timeout: timeout, config: config, pluginPath: pluginPath, values: valueOptions)
    }

    func run() throws {
        let settings = settings(commandLine: CommandLine.arguments)
        if interactive {
            let status = ReplCommand.start(script: script, arguments: arguments, configuration: settings.configuration,
                                           pluginPaths: settings.setup.pluginPaths, sandbox: settings.runner.libraries == .sandboxed,
                                           granted: settings.setup.granted, memoryLimit: settings.runner.memoryLimit,
                                           timeLimit: settings.runner.timeLimit, preludes: settings.runner.preludes,
                                           values: valueOptions)
            if status != 0 { throw ExitCode(status) }
            return
        }
        guard script != nil else { settings.runPreludesAndExit() }
        settings.runAndExit()
    }
}
