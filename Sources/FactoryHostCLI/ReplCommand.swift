import ArgumentParser
import FactoryREPL
import FactoryScripting
import FactoryhostSupport
import LuaBridge
import LuaInterpreter

/// `factoryhost repl [script.lua]`: a Lua prompt in a host, with commands
/// for exploring configurations and live object graphs.
struct ReplCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repl",
        abstract: "Explore configurations and live object graphs at a Lua prompt.",
        discussion: """
            Runs the script (its configurations, modules and top-level effects), then prompts. \
            An expression prints its values, pretty; a statement runs; an unfinished chunk \
            continues on the next line; `local` names stay for later lines. :help lists the \
            commands (:configs, :regs, :graph, :inspect, :live, :use, :check, :reload, :time). \
            With standard input not a terminal, there are no prompts: each line is evaluated \
            and its result printed, so sessions can be scripted.
            """
    )

    @Option(name: .customLong(RunOption.config.longName), help: ArgumentHelp("The configuration that plain `resolve \"X\"` uses.", valueName: "name"))
    var config: String?

    @Option(name: .customLong(RunOption.pluginPath.longName), help: ArgumentHelp("Directories of Lua plugins (colon-separated; repeatable; also $FACTORYHOST_PLUGIN_PATH).", valueName: "dirs"), completion: .directory)
    var pluginPath: [String] = []

    @Flag(name: .customLong(RunOption.sandbox.longName), help: "Untrusted code: the restricted library, and only the plugins --allow grants.")
    var sandbox = false

    @Option(name: .customLong(RunOption.allow.longName), help: ArgumentHelp("With --sandbox, the capabilities Swift plugins may use (files, network, processes, environment, all).", valueName: "capabilities"), completion: .list(PluginCapabilities.named.map(\.name) + ["all"]))
    var allow: [String] = []

    @Option(name: .customLong(RunOption.memoryLimit.longName), help: ArgumentHelp("Cap the memory Lua may use (bytes, or with K, M or G).", valueName: "size"))
    var memoryLimit: String?

    @Option(name: .customLong(RunOption.timeout.longName), help: ArgumentHelp("Each line's time limit (seconds, or with ms, s or m).", valueName: "duration"))
    var timeout: String?

    @OptionGroup var valueOptions: ValueOptions

    @Option(name: .customShort("e"), help: ArgumentHelp("Run this statement first (repeatable, in order with -l).", valueName: "stat"))
    var execute: [String] = []

    @Option(name: .customShort("l"), help: ArgumentHelp("Require this module first, as global `mod` (or `g=mod`; repeatable).", valueName: "mod"))
    var library: [String] = []

    @Argument(help: ArgumentHelp("The script to run first; `-` reads it from standard input.", valueName: "script"), completion: .file(extensions: ["lua"]))
    var script: String?

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("Arguments passed to the script.", valueName: "args"))
    var arguments: [String] = []

    func validate() throws {
        try HostOptions.validate(sandbox: sandbox, allow: allow, memoryLimit: memoryLimit, timeout: timeout)
        if script == "-" && isatty(0) == 0 {
            throw ValidationError("repl -: standard input cannot be both the script and the session; give the script a file")
        }
    }

    /// The session's settings, each option applied through ``RunOption`` as
    /// the fast reading applies it (`commandLine`: the whole `argv`).
    func settings(commandLine: [String]) -> RunSettings {
        RunSettings(commandLine: commandLine, scriptIndex: script == nil ? commandLine.count : commandLine.count - arguments.count - 1,
                    sandbox: sandbox, allow: allow, memoryLimit: memoryLimit, timeout: timeout, config: config,
                    pluginPath: pluginPath, values: valueOptions)
    }

    func run() throws {
        let settings = settings(commandLine: CommandLine.arguments)
        let status = Self.start(script: script, arguments: arguments, configuration: settings.configuration,
                                pluginPaths: settings.setup.pluginPaths, sandbox: settings.runner.libraries == .sandboxed,
                                granted: settings.setup.granted, memoryLimit: settings.runner.memoryLimit,
                                timeLimit: settings.runner.timeLimit, preludes: settings.runner.preludes, values: valueOptions)
        if status != 0 { throw ExitCode(status) }
    }

    /// The options of `run` and `repl` that take a value as the next word.
    static let optionsWithValues = Set(RunOption.allCases.filter(\.takesValue).map(\.rawValue))

    /// `-e` and `-l` in the order the command line gives them (as lua5.4 runs them).
    static func preludes(_ argv: [String]) -> [ScriptRunner.Prelude] {
        var result: [ScriptRunner.Prelude] = []
        // A statement that is not UTF-8 text runs as its bytes, as lua5.4 runs it.
        let bytes = RawArguments.bytes(for: argv)
        func execute(_ index: Int, dropping prefix: Int) -> ScriptRunner.Prelude {
            if let bytes, index < bytes.count, String(validating: bytes[index], as: UTF8.self) == nil {
                return .executeBytes(Array(bytes[index].dropFirst(prefix)))
            }
            return .execute(String(argv[index].dropFirst(prefix)))
        }
        var index = 1
        while index < argv.count {
            let word = argv[index]
            if word == "--" { break }
            if word == "-e" || word == "-l", index + 1 < argv.count {
                result.append(word == "-e" ? execute(index + 1, dropping: 0) : .require(argv[index + 1]))
                index += 2
                continue
            }
            if word.hasPrefix("-e"), word.count > 2 { result.append(execute(index, dropping: 2)) }
            else if word.hasPrefix("-l"), word.count > 2 { result.append(.require(String(word.dropFirst(2)))) }
            else if Self.optionsWithValues.contains(word) { index += 1 }    // its value is not the script
            else if !word.hasPrefix("-") && index > 1 { break }          // the script: its own arguments follow
            index += 1
        }
        return result
    }

    /// Starts a session and runs it on the terminal or on piped input;
    /// returns the exit status.
    static func start(script: String?, arguments: [String], configuration: String?, pluginPaths: [String],
                      sandbox: Bool, granted: PluginCapabilities, memoryLimit: Int?, timeLimit: Duration?,
                      preludes: [ScriptRunner.Prelude], values: ValueOptions = .given(files: [], assignments: [])) -> Int32 {
        var setup = HostSetup(pluginPaths: pluginPaths)
        setup.timeLimit = timeLimit
        setup.libraries = sandbox ? .sandboxed : .standard
        setup.granted = granted
        values.apply(to: &setup)
        var settings = REPLSession.Settings {
            try setup.makeHost { lua in
                lua.memoryLimit = memoryLimit
                lua.limitProcessMemory(growth: memoryLimit)
                lua.timeLimit = timeLimit                       // each Lua plugin's load, as each line later
                if timeLimit != nil || memoryLimit != nil { lua.hardStop = .exitProcess(grace: .seconds(1), prefix: "\(ProgramName.current): ") }
            }
        }
        settings.script = script
        settings.arguments = arguments
        // argv ends with the script and its arguments: what comes before is arg's negative indices.
        let words = CommandLine.arguments, scriptIndex = words.count - arguments.count - 1
        if let script, scriptIndex >= 0, words[scriptIndex] == script { settings.precedingWords = Array(words[..<scriptIndex]) }
        settings.configuration = configuration
        settings.timeLimit = timeLimit
        settings.preludes = preludes
        let session: REPLSession
        let terminal = isatty(0) != 0
        // Piped input is a scripted session: a line that failed makes the status 1, as in a script.
        let (output, errors) = REPLOutput.counting(.standard)
        do {
            session = try REPLSession(settings: settings, output: terminal ? .standard : output)
        } catch {
            reportError(error)
            return 1
        }
        let input: LineInput
        if terminal {
            print("\(ProgramName.current) \(FactoryHostVersion.current) (Lua 5.4) — :help lists the commands, Ctrl-D ends the session")
            do {
                input = try LineEditor(historyFile: LineEditor.defaultHistoryFile()) { session.completions(for: $0) }
            } catch {
                writeToStandardError("\(ProgramName.current): no line editing (\(error)): lines are read as typed\n")
                input = PipedInput(showsPrompts: true)
            }
        } else {
            input = PipedInput()
        }
        let status = REPLLoop.run(session, input: input)
        return status == 0 && errors.count > 0 ? 1 : status
    }
}
