import ArgumentParser
import FactoryRegistry
import FactoryhostSupport
import FactoryScripting
import LuaBridge
import LuaInterpreter

/// `factoryhost check script.lua`: validates every configuration without
/// constructing anything — and says so only when it saw everything.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate every configuration a script declares, building nothing.",
        discussion: """
            Runs the script without side effects up to its first container (or `resolve`), \
            then checks every configuration: missing and mistyped dependencies, cycles, \
            captive dependencies, unknown scopes, argument types. The run also stops (uncatchably) \
            at anything that would write or remove a file, start a process, \
            call os.exit or reach the network, and at the time limit. Declarations the run \
            never reached (after the stop, in a module required after it, in a function \
            never called) are problems too: check never says ok for what it did not see. \
            Prints every problem with its file:line (or JSON with --format json); exits 1 \
            if there is any. A spec file's top-level configurations are checked too \
            (describe runs its body; it, pending and hooks do nothing).
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Option(name: .customLong("plugin-path"), help: ArgumentHelp("Directories of Lua plugins (colon-separated; repeatable).", valueName: "dirs"), completion: .directory)
    var pluginPath: [String] = []

    @OptionGroup var valueOptions: ValueOptions

    @Option(help: ArgumentHelp("Check only this configuration.", valueName: "name"))
    var config: String?

    @Option(help: "Output format: text, or json for editors and CI annotations.")
    var format: Format = .text

    @Option(help: ArgumentHelp("Stop the run (the Lua plugins, reading the script, the script) after this long in all (seconds, or with ms, s or m).", valueName: "duration"))
    var timeout: String = "10s"

    @Argument(help: ArgumentHelp("The script that declares the configurations; `-` reads standard input.", valueName: "script"), completion: .file(extensions: ["lua"]))
    var script: String

    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Arguments passed to the script (in `arg` and `...`); after `--`, words that look like options too.", valueName: "args"))
    var arguments: [String] = []

    /// The script's words: what the parser did not take, without the `--`
    /// that lets words looking like options through (`check app.lua -- --config x`).
    static func scriptWords(_ words: [String]) -> [String] {
        guard let separator = words.firstIndex(of: "--") else { return words }
        return Array(words[..<separator] + words[(separator + 1)...])
    }

    func validate() throws {
        try Limits.validateDuration(timeout)
    }

    func run() throws {
        settings.run()
    }

    /// What the parser read, applied through ``CheckOption`` as the plain reading applies it.
    var settings: CheckSettings {
        var settings = CheckSettings(script: script, arguments: Self.scriptWords(arguments))
        CheckOption.apply([(.pluginPath, pluginPath), (.values, valueOptions.files), (.set, valueOptions.assignments),
                           (.config, config.map { [$0] } ?? []), (.format, [format.rawValue]), (.timeout, [timeout])], to: &settings)
        return settings
    }

    /// The plain forms of `check` (see ``PlainCommandLine``), read without
    /// the argument parser; nil for anything else.
    static func plainSettings(_ argv: [String]) -> CheckSettings? {
        CheckOption.plainSettings(argv, command: "check", defaults: CheckSettings(script: ""))
    }
}

/// `check` with its settings, however they were read.
struct CheckSettings: Equatable, DeclarationCommandSettings {
    var script: String
    var arguments: [String] = []
    var pluginPaths: [String] = []
    var valueFiles: [String] = []
    var valueAssignments: [String] = []
    var configuration: String?
    var format = CheckCommand.Format.text
    var timeLimit: Duration = .seconds(10)

    /// Checks the script's configurations, prints the report, and exits.
    func run() -> Never {
        CommandDeadline.arm(timeLimit, doing: "reading or checking")
        let config = configuration
        let dry: DryDeclaration
        do {
            dry = try DryDeclaration(script: script, arguments: arguments, pluginPaths: pluginPaths,
                                     values: .given(files: valueFiles, assignments: valueAssignments), timeLimit: timeLimit)
        } catch {
            reportError(error)
            DryDeclaration.finish(1)
        }
        let host = dry.host
        // A script that cannot be read is not a problem of its configurations: say so as run does.
        if let error = dry.run.error as? LuaError, error.kind == .file, format == .text {
            reportError(error)
            DryDeclaration.finish(1)
        }
        if let config, host.registry.configuration(config) == nil, dry.run.sawEverything {
            reportError(RegistryError(.unknownConfiguration, "no configuration named '\(MessageText.oneLine(config))'"
                                      + NameSuggestion.didYouMean(config, among: host.registry.configurationNames),
                                      details: ["defined: " + MessageText.list(host.registry.configurationNames)]))
            DryDeclaration.finish(1)
        }
        let problems = host.problems(after: dry.run, configuration: config)
        let names = config.map { name in host.registry.configuration(name) == nil ? [] : [name] } ?? host.registry.configurationNames
        let summary = CheckSummary(host.registry, configurations: names)
        switch format {
        case .json:
            print(json(problems, configurations: names, summary: summary, stop: dry.run.stop))
        case .text:
            // Each problem at most about 4 KB, with nothing a terminal would act on (names are the script's).
            for problem in problems { print(MessageText.printable("\(problem)")) }
            if problems.isEmpty {
                print("ok: \(summary), no problems")
                if let note = dry.stopNote { print("(\(note))") }
            } else {
                // (The note that check stopped early is not a problem of the script's.)
                let count = problems.count { $0.kind != "checkStopped" }
                print("\(count) problem\(count == 1 ? "" : "s") in \(summary)")
            }
        }
        DryDeclaration.finish(problems.isEmpty ? 0 : 1)
    }

    /// `{"ok": …, "configurations": […], "registrations": N, "declared": N, "stopped": {…}|null, "complete": …, "problems": […]}`
    /// (`registrations`: checked, each configuration with what it inherits; `declared`: as written;
    /// `complete`: false when check stopped at its problem limit, and there may be more).
    private func json(_ problems: [CheckProblem], configurations: [String], summary: CheckSummary,
                      stop: DeclarationRun.Stop?) -> String {
        func origin(_ origin: Origin?) -> String {
            origin.map { "{\"file\": \(jsonString($0.file)), \"line\": \($0.line)}" } ?? "null"
        }
        func list(_ items: [String]) -> String { "[" + items.map(jsonString).joined(separator: ", ") + "]" }
        let entries = problems.map { problem in
            "    {\"kind\": \(jsonString(problem.kind)), \"message\": \(jsonString(problem.message)), "
                + "\"configuration\": \(problem.configuration.map(jsonString) ?? "null"), "
                + "\"configurations\": \(list(problem.configurations)), \"origin\": \(origin(problem.origin)), "
                + "\"path\": \(list(problem.path)), \"details\": \(list(problem.details.map { MessageText.bounded($0) }))}"
        }
        let stopped = stop.map {
            "{\"reason\": \(jsonString($0.reason.rawValue)), \"origin\": \(origin($0.origin)), \"message\": \(jsonString($0.message))}"
        } ?? "null"
        return "{\n  \"ok\": \(problems.isEmpty),\n  \"configurations\": \(list(configurations)),\n"
            + "  \"registrations\": \(summary.checked),\n  \"declared\": \(summary.declared),\n  \"stopped\": \(stopped),\n"
            + "  \"complete\": \(!problems.contains { $0.kind == "checkStopped" }),\n"
            + "  \"problems\": [" + (entries.isEmpty ? "" : "\n" + entries.joined(separator: ",\n") + "\n  ") + "]\n}"
    }
}
