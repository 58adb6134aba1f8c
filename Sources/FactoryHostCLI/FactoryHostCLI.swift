import ArgumentParser
import CLuaShim
import CStackBounds
import FactoryRegistry
import FactoryScripting
import FactoryhostSupport
import LuaBridge
import LuaInterpreter

/// The `factoryhost` command line as a library, so an application can build
/// its own host binary with its own Swift plugins:
///
/// ```swift
/// // Sources/shop/main.swift
/// import FactoryHostCLI
/// FactoryHostCLI.main(name: "shop", plugins: [PaymentsPlugin(), NetworkingPlugin()])
/// ```
///
/// Its messages, help, REPL banner and history folder, man page and shell
/// completions then say `shop` where the stock binary says `factoryhost`.
public enum FactoryHostCLI {
    /// The plugins every command's host gets. nonisolated(unsafe): written once, by ``main(plugins:)`` before any
    /// command runs or any thread starts; only read afterwards.
    nonisolated(unsafe) static var plugins: [any FactoryPlugin] = []

    /// Runs the command line in `CommandLine.arguments` and exits.
    ///
    /// - Parameter name: what the host calls itself in messages (`shop: app.lua:3: boom`),
    ///   help and completions; by default the name it was run by (its path's last part).
    ///
    /// `test --jobs N` installs the same `plugins` into hosts on N threads at
    /// once, so a plugin must be safe to install concurrently: hold no mutable
    /// state, or guard it with a lock.
    public static func main(name: String? = nil, plugins: [any FactoryPlugin]) -> Never {
        _ = CommandDeadline.started                 // the command's clock starts now
        POSIX.reserveStandardDescriptors()          // nothing opened later lands on a closed 0, 1 or 2
        self.plugins = plugins
        ProgramName.current = name ?? Self.invokedName
        // Deep graphs: each nested resolve takes ~2 KB of stack, so the 8 MiB
        // default stops near 3,500 levels; 64 MiB (below the 128 MiB Linux
        // keeps free under the main stack) resolves 20,000 and more.
        _ = fh_grow_main_stack(64 << 20)
        // What a script starts in the background re-parents here, not to
        // init, so a hard stop (or the test runner's end) can end it too.
        fh_adopt_orphans()
        // …and SIGTERM or SIGHUP (how CI cancels, how a terminal closes) ends it with this process;
        // SIGKILL, which no handler sees, a guardian process.
        fh_end_tree_on_termination()
        fh_guard_child_groups()
        if let settings = FastRunArguments.parse(CommandLine.arguments) {
            if settings.hasScript { settings.runAndExit() }
            settings.runPreludesAndExit()
        }
        if let status = FastReplArguments.start(CommandLine.arguments) {
            exit(status)
        }
        // Past run's and repl's own readings, every word is read as text: one that is not (a Latin-1
        // file name) would be looked for repaired — "not found" named a file that is not there.
        if let first = CommandLine.arguments.dropFirst().first,
           FactoryHostCommand.configuration.subcommands.contains(where: { $0.configuration.commandName == first }) {
            RawArguments.refuseWordsThatAreNotText(CommandLine.arguments, program: ProgramName.current, command: first)
        }
        if let settings = CheckCommand.plainSettings(CommandLine.arguments) { settings.run() }
        if let settings = GraphCommand.plainSettings(CommandLine.arguments) { settings.run() }
        if let settings = TestSettings.plain(CommandLine.arguments) { exit(settings.run()) }
        // Plain `factoryhost` is plain `lua5.4`: the REPL on a terminal, and
        // otherwise standard input run as a script (`factoryhost < app.lua`),
        // except that a failing script exits 1 (lua.c ignores the error there).
        if CommandLine.arguments.count == 1 {
            if isatty(0) != 0 {
                exit(ReplCommand.start(script: nil, arguments: [], configuration: nil, pluginPaths: [], sandbox: false,
                                       granted: [], memoryLimit: nil, timeLimit: nil, preludes: []))
            }
            FastRunArguments.parse(CommandLine.arguments + ["run", "-"])?.runAndExit()
        }
        let arguments = CommandLine.arguments
        // `factoryhost -v`: lua5.4's version flag.
        if arguments.count == 2, arguments[1] == "-v" { runParsed(["--version"]) }
        // `factoryhost -e STAT`, `-l MOD`, `-i`: lua5.4's options, as `run` takes them — and run's own
        // (`factoryhost --timeout 2 app.lua`, as `factoryhost app.lua` is run).
        if arguments.count >= 2, let first = arguments.dropFirst().first,
           (!first.hasPrefix("--") && (first.hasPrefix("-i") || first.hasPrefix("-e") || first.hasPrefix("-l")))
            || RunOption(rawValue: PlainCommandLine.split(first).name) != nil {
            let asRun = [arguments[0], "run"] + arguments.dropFirst()
            if let settings = FastRunArguments.parse(asRun) {
                if settings.hasScript { settings.runAndExit() }
                settings.runPreludesAndExit()
            }
            RawArguments.refuseWordsThatAreNotText(asRun, program: ProgramName.current, command: "run")
            runParsed(parserArguments(asRun))
        }
        let commandNames = FactoryHostCommand.configuration.subcommands.compactMap { $0.configuration.commandName }
        // `factoryhost app.lua`, as `lua5.4 app.lua`: a first word that is no command but a file runs it.
        // Another word is a mistyped command: say so, with the nearest (the parser said "unexpected argument").
        if arguments.count >= 2, arguments[1] == "-" || !arguments[1].hasPrefix("-"), arguments[1] != "help",
           !commandNames.contains(arguments[1]) {
            let word = arguments[1]
            let isFile = access(word, F_OK) == 0 && !Directory.isDirectory(word)       // a FIFO too, as run takes it
            if word == "-" || isFile || word.hasSuffix(".lua") || word.contains("/") {
                FastRunArguments.parse([arguments[0], "run"] + arguments.dropFirst())?.runAndExit()
            } else {
                writeToStandardError("Error: no command '\(MessageText.oneLine(MessageText.bounded(arguments[1], limit: 200)))'"
                                     + NameSuggestion.didYouMean(arguments[1], among: commandNames)
                                     + " (commands: \(commandNames.joined(separator: ", ")); to run a script: \(ProgramName.current) run FILE)\n"
                                     + "  See '\(ProgramName.current) --help' for more information.\n")
                exit(64)
            }
        }
        // `factoryhost help NOPE`: the parser would print the overview and succeed.
        if arguments.count >= 3, arguments[1] == "help", !arguments[2].hasPrefix("-"),
           !commandNames.contains(arguments[2]) {
            writeToStandardError("Error: no command '\(MessageText.oneLine(MessageText.bounded(arguments[2], limit: 200)))'"
                                 + NameSuggestion.didYouMean(arguments[2], among: commandNames)
                                 + " (commands: \(commandNames.joined(separator: ", ")))\n"
                                 + "  See '\(ProgramName.current) --help' for more information.\n")
            exit(64)
        }
        // The argument parser's time grows with the square of the words it reads (4,000 took 3.9 s,
        // before any deadline is armed); the plain forms above take any number.
        if arguments.count > parserWordLimit {
            writeToStandardError("\(ProgramName.current): \(arguments.count - 1) command-line words: more than the \(parserWordLimit) "
                                 + "that -i, --help and unusual option forms are read with (a plain "
                                 + "`\(ProgramName.current) run [options] script.lua args…` takes any number)\n")
            exit(64)
        }
        RawArguments.refuseWordsThatAreNotText(arguments, program: ProgramName.current, command: arguments.dropFirst().first ?? "")
        runParsed(parserArguments(arguments))
    }
}

extension FactoryHostCLI {
    /// `argv` without the program, as the argument parser reads it: for
    /// `run` and `repl`, lua5.4's joined `-eSTAT` and `-lMOD` before the
    /// script as two words each (the parser reads `-eprint(3)` as flags
    /// `-e`, `-p`, …). A word joining `-i` to more (`-ie`, `-il`) is refused,
    /// as lua5.4 refuses it: the parser took it as `-i` and `-e`, and the
    /// statements were dropped.
    static func parserArguments(_ argv: [String]) -> [String] {
        var words = Array(argv.dropFirst())
        // `--set=` gives no value: the parser took the next word (the script) as the value.
        for word in words.dropFirst() {
            if word == "--" || !word.hasPrefix("-") { break }
            if word.hasPrefix("--") && word.hasSuffix("=") && word.count > 3 {
                let option = MessageText.printable(String(word.dropLast().prefix(60)))
                let value = option == "--set" ? "name=value" : "VALUE"
                writeToStandardError("\(ProgramName.current): \(option)= gives no value (write \(option)=\(value), or \(option) \(value))\n")
                exit(64)
            }
        }
        guard let command = words.first, command == "run" || command == "repl" else { return words }
        var index = 1
        while index < words.count {
            let word = words[index]
            if word == "--" || !word.hasPrefix("-") || word == "-" { break }       // the script, or its arguments
            if word.hasPrefix("-i") && word.count > 2 {
                writeToStandardError("\(ProgramName.current): unrecognized option '\(MessageText.printable(String(word.prefix(40))))' "
                                     + "(as lua5.4: give -i apart, as -i -e STAT)\n")
                exit(64)
            }
            if word == "-e" || word == "-l" {
                index += 2
                continue
            }
            if (word.hasPrefix("-e") || word.hasPrefix("-l")) && !word.hasPrefix("--") {
                words[index...index] = [String(word.prefix(2)), String(word.dropFirst(2))]
                index += 2
                continue
            }
            if ReplCommand.optionsWithValues.contains(word) { index += 1 }
            index += 1
        }
        return words
    }

    /// Parses `words` and runs the command, as `ParsableCommand.main` does —
    /// except that an error (a usage error quotes what was typed: 100 KB of
    /// it, or escape sequences) is bounded and made terminal-safe first.
    static func runParsed(_ words: [String]) -> Never {
        do {
            var command = try FactoryHostCommand.parseAsRoot(words)
            try command.run()
            exit(0)
        } catch {
            let code = FactoryHostCommand.exitCode(for: error)
            let message = FactoryHostCommand.fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { print(message) }          // --help, --version: the program's own text
            } else if !message.isEmpty {
                writeToStandardError(MessageText.printable(message) + "\n")
            }
            exit(code.rawValue)
        }
    }

    /// The most words the argument parser is given (about 0.25 s of its time).
    static let parserWordLimit = 1_000

    /// The last part of the path the binary was run by (`factoryhost` for
    /// `/usr/local/bin/factoryhost`), or `factoryhost` when there is none.
    static var invokedName: String {
        guard let path = CommandLine.arguments.first,
              let last = path.split(separator: "/").last, !last.isEmpty else { return "factoryhost" }
        return String(last)
    }
}

/// What every command that loads scripts shares: the Lua plugin path.
struct HostSetup: Equatable {
    var pluginPaths: [String] = []
    var libraries: LuaState.Libraries = .standard
    /// What a sandboxed host's Swift plugins may reach (`--allow`).
    var granted: PluginCapabilities = []
    /// Configuration values: `--values FILE`s in order, then `--set name=value`s.
    var valueFiles: [String] = []
    var valueAssignments: [String] = []
    /// The command's `--timeout`: a values file's Lua runs at most this long
    /// (and at most 2 s), not a fixed 2 s past a shorter limit.
    var timeLimit: Duration?

    /// The plugin path: `--plugin-path` entries, then `FACTORYHOST_PLUGIN_PATH`'s.
    var searchPath: [String] {
        var paths = pluginPaths.flatMap { $0.split(separator: ":").map(String.init) }
        if let value = getenv("FACTORYHOST_PLUGIN_PATH") {
            // A path that is not UTF-8 text would be looked for repaired (a folder named U+FFFD): refused.
            guard let text = String(validatingCString: value) else {
                let bytes = UnsafeRawBufferPointer(start: value, count: strlen(value))
                writeToStandardError("\(ProgramName.current): FACTORYHOST_PLUGIN_PATH '\(TextEscaping.shownBytes(bytes.prefix(1_000)))' "
                                     + "is not UTF-8 text: plugin folders are named in text\n")
                exit(1)
            }
            paths += text.split(separator: ":").map(String.init)
        }
        return paths
    }

    /// A host with the binary's Swift plugins (installed when the script
    /// first needs them: a plain Lua script never pays for them) and the Lua
    /// plugins on the path.
    func makeHost(dryRun: Bool = false, configure: (LuaState) -> Void = { _ in }) throws -> FactoryHost {
        let host = try FactoryHost(libraries: libraries, granting: libraries == .sandboxed ? granted : .all)
        host.projectFileTimeLimit = Self.valuesFileLimit(within: timeLimit)
        try applyValues(to: host)
        if dryRun { try host.beginDryRun() }        // before any plugin code runs
        configure(host.lua)
        try host.installWhenNeeded(FactoryHostCLI.plugins)
        try host.loadLuaPlugins(searchPath: searchPath)
        return host
    }
}

extension HostSetup {
    /// The values files and `--set`s, given to `host` (a sandbox reads no
    /// environment variable for a value unless granted the environment).
    func applyValues(to host: FactoryHost) throws {
        if libraries == .sandboxed && !granted.contains(.environment) { host.values.readsEnvironment = false }
        for file in valueFiles { try host.values.addFile(file, timeLimit: Self.valuesFileLimit(within: timeLimit)) }
        for assignment in valueAssignments { try host.values.set(assignment: assignment) }
    }

    /// How long a values file's (or the project file's) Lua may run: 2 s, or
    /// what is left of the command's limit if less — each file does not get
    /// the whole limit again (four 1.5 s files under --timeout 3s ran 5 s).
    static func valuesFileLimit(within commandLimit: Duration?) -> Duration {
        min(commandLimit.map(CommandDeadline.left(of:)) ?? .seconds(2), .seconds(2))
    }

    /// Whether `assignment` reads as `--set`'s `name=value`.
    static func isAssignment(_ assignment: String) -> Bool {
        guard let equals = assignment.firstIndex(of: "=") else { return false }
        return equals != assignment.startIndex
    }
}

/// `factoryhost: <message>` on standard error — at most about 4 KB of it,
/// and no control character a terminal would act on (a script's error text
/// is the script's).
func reportError(_ error: Error) {
    writeToStandardError("\(ProgramName.current): \(MessageText.printable(describe(error)))\n")
}

/// An error as the CLI prints it: a registry error starts with its origin.
func describe(_ error: Error) -> String {
    if let error = error as? LuaError { return error.description }
    if let error = error as? RegistryError, let origin = error.origin { return "\(origin): \(error)" }
    return String(describing: error)
}
