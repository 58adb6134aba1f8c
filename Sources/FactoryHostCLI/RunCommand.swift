import ArgumentParser
import FactoryScripting
import LuaBridge
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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

    @Flag(help: "Run untrusted code: no io, os.execute/exit/getenv/remove/rename, debug, dofile/loadfile, binary chunks or C modules.")
    var sandbox = false

    @Option(name: .customLong("allow"), help: ArgumentHelp(
        "With --sandbox, let Swift plugins that reach these in (files, network, processes, environment, all; comma-separated, repeatable).",
        valueName: "capabilities"), completion: .list(PluginCapabilities.named.map(\.name) + ["all"]))
    var allow: [String] = []

    @Option(name: .customLong("memory-limit"), help: ArgumentHelp("Cap the memory Lua may use (bytes, or with K, M or G).", valueName: "size"))
    var memoryLimit: String?

    @Option(help: ArgumentHelp("Stop the script after this long (seconds, or with ms, s or m).", valueName: "duration"))
    var timeout: String?

    @Option(help: ArgumentHelp("The configuration that unqualified `resolve \"X\"` calls use.", valueName: "name"))
    var config: String?

    @Option(name: .customLong("plugin-path"), help: ArgumentHelp("Directories of Lua plugins (colon-separated; repeatable; also $FACTORYHOST_PLUGIN_PATH).", valueName: "dirs"), completion: .directory)
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

    func run() throws {
        let preludes = ReplCommand.preludes(CommandLine.arguments)
        if interactive {
            let status = ReplCommand.start(script: script, arguments: arguments, configuration: config, pluginPaths: pluginPath,
                                           sandbox: sandbox, granted: HostOptions.granted(allow), memoryLimit: memoryLimit.flatMap(Limits.bytes),
                                           timeLimit: timeout.flatMap(Limits.duration), preludes: preludes,
                                           values: valueOptions)
            if status != 0 { throw ExitCode(status) }
            return
        }
        guard script != nil else {
            // `run -e STAT` / `-l MOD` alone: run them, as lua5.4 does, and end.
            var setup = HostSetup(pluginPaths: pluginPath)
            setup.libraries = sandbox ? .sandboxed : .standard
            setup.granted = HostOptions.granted(allow)
            valueOptions.apply(to: &setup)
            do {
                // The limits as a script's run applies them (one deadline for the
                // whole run, the process's growth watched, a hard stop for code
                // Lua cannot interrupt); the Lua plugins run under them too.
                var limits = ScriptRunner(commandLine: CommandLine.arguments, scriptIndex: 0)
                limits.timeLimit = timeout.flatMap(Limits.duration)
                limits.memoryLimit = memoryLimit.flatMap(Limits.bytes)
                let host = try setup.makeHost { limits.applyLimits(to: $0) }
                host.defaultConfiguration = config
                host.lua.interruptOnControlC(true)
                for prelude in preludes { try prelude.run(in: host.lua) }
                host.lua.interruptOnControlC(false)
            } catch {
                reportError(error)
                throw ExitCode(1)
            }
            return
        }
        let commandLine = CommandLine.arguments
        var runner = ScriptRunner(commandLine: commandLine, scriptIndex: commandLine.count - arguments.count - 1)
        runner.libraries = sandbox ? .sandboxed : .standard
        runner.memoryLimit = memoryLimit.flatMap(Limits.bytes)
        runner.timeLimit = timeout.flatMap(Limits.duration)
        runner.preludes = preludes
        var setup = HostSetup(pluginPaths: pluginPath)
        setup.granted = HostOptions.granted(allow)
        valueOptions.apply(to: &setup)
        let settings = RunSettings(runner: runner, setup: setup, configuration: config)
        settings.runAndExit()
    }
}
