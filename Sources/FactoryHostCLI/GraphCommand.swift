import ArgumentParser
import FactoryhostSupport
import FactoryRegistry
import FactoryScripting
import LuaBridge
import LuaInterpreter

/// `factoryhost graph script.lua [--config NAME] [--root TYPE] --format tree|dot|json|mermaid`.
struct GraphCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Print a configuration's object graph as a tree, Graphviz DOT, Mermaid or JSON.",
        discussion: """
            Nodes show each registration's type, name, scope, runtime arguments and origin; \
            edges show the dependency's label, and providers are marked. Nothing is built: \
            the script runs without side effects up to its first container (as for check); \
            if it has declarations the run never reached, graph names them and draws nothing. \
            Without --config, the only configuration is drawn; with several, the tree \
            draws each in turn (the other formats need --config).
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case tree, dot, json, mermaid
    }

    @Option(help: ArgumentHelp("The configuration to draw (default: the only one; as a tree, each one).", valueName: "name"))
    var config: String?

    @Option(help: ArgumentHelp("Draw only what this key (`Type` or `Type#name`) needs.", valueName: "key"))
    var root: String?

    @Option(help: "Output format.")
    var format: Format = .tree

    @Option(name: .customLong("plugin-path"), help: ArgumentHelp("Directories of Lua plugins (colon-separated; repeatable).", valueName: "dirs"), completion: .directory)
    var pluginPath: [String] = []

    @Option(help: ArgumentHelp("Stop the run (the Lua plugins, reading the script, the script) after this long in all (seconds, or with ms, s or m).", valueName: "duration"))
    var timeout: String = "10s"

    @OptionGroup var valueOptions: ValueOptions

    @Argument(help: ArgumentHelp("The script that declares the configurations; `-` reads standard input.", valueName: "script"), completion: .file(extensions: ["lua"]))
    var script: String

    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Arguments passed to the script (in `arg` and `...`); after `--`, words that look like options too.", valueName: "args"))
    var arguments: [String] = []

    func validate() throws {
        try Limits.validateDuration(timeout)
    }

    func run() throws {
        settings.run()
    }

    /// What the parser read.
    var settings: GraphSettings {
        var settings = GraphSettings(script: script, arguments: CheckCommand.scriptWords(arguments))
        GraphOption.apply([(.config, config.map { [$0] } ?? []), (.root, root.map { [$0] } ?? []), (.format, [format.rawValue]),
                           (.pluginPath, pluginPath), (.timeout, [timeout]), (.values, valueOptions.files),
                           (.set, valueOptions.assignments)], to: &settings)
        return settings
    }

    /// The plain forms of `graph` (see ``PlainCommandLine``), read without
    /// the argument parser; nil for anything else.
    static func plainSettings(_ argv: [String]) -> GraphSettings? {
        GraphOption.plainSettings(argv, command: "graph", defaults: GraphSettings(script: ""))
    }
}

/// `graph` with its settings, however they were read.
struct GraphSettings: Equatable, DeclarationCommandSettings {
    var script: String
    var arguments: [String] = []
    var pluginPaths: [String] = []
    var valueFiles: [String] = []
    var valueAssignments: [String] = []
    /// nil: the only configuration, or (as a tree) each one.
    var configuration: String?
    var root: String?
    var format = GraphCommand.Format.tree
    var timeLimit: Duration = .seconds(10)

    /// Draws the configuration's graph and exits.
    func run() -> Never {
        CommandDeadline.arm(timeLimit, doing: "reading, checking or drawing the graph")
        do {
            let dry = try DryDeclaration(script: script, arguments: arguments, pluginPaths: pluginPaths,
                                         values: .given(files: valueFiles, assignments: valueAssignments), timeLimit: timeLimit)
            let host = dry.host
            // A graph of declarations the run did not all see would be a guess: say what is missing.
            // And one whose extends names nothing or runs in a cycle: the chain
            // of the configuration drawn (of any, drawing all) is broken.
            var chain: Set<String> = []
            var cursor = configuration
            while let name = cursor, chain.insert(name).inserted { cursor = host.registry.configuration(name)?.parent }
            let unseen = host.problems(after: dry.run).filter {
                $0.kind == "declarationError" || $0.kind == "notChecked"
                    || (($0.kind == "unknownConfiguration" || $0.kind == "configurationCycle")
                        && (configuration == nil || ([$0.configuration].compactMap { $0 } + $0.configurations).contains(where: chain.contains)))
            }
            if !unseen.isEmpty {
                writeToStandardError(unseen.map { "\(ProgramName.current): \(MessageText.printable("\($0)"))\n" }.joined())
                DryDeclaration.finish(1)
            }
            let names = configuration.map { [$0] } ?? host.registry.configurationNames
            let rootKey: ServiceKey?
            do {
                rootKey = try root.map { try host.serviceKey(parsing: $0) }
            } catch {
                // Not a type: perhaps part of a registered key (Checkout for table#CheckoutViewModel).
                guard let root else { throw error }
                let keys = Set(names.flatMap { (try? host.registry.registrations(in: $0))?.map(\.key.description) ?? [] })
                let nearest = NameSuggestion.nearest(to: root, among: keys.sorted())
                guard !nearest.isEmpty else { throw error }
                throw RegistryError(.missingRegistration, "no registration for \(root)", details: ["nearest: " + nearest.joined(separator: ", ")])
            }
            guard !names.isEmpty else {
                writeToStandardError("\(ProgramName.current): graph: the script declares no configuration\n")
                DryDeclaration.finish(1)
            }
            if names.count > 1 && format != .tree {
                writeToStandardError("\(ProgramName.current): " + MessageText.printable("graph: the script declares \(names.count) configurations "
                                     + "(\(names.joined(separator: ", "))): give --config NAME (the tree format draws each)") + "\n")
                DryDeclaration.finish(64)
            }
            var drawn = 0
            for name in names {
                // With --root and several configurations, those without the key are left out.
                let several = names.count > 1 && rootKey != nil
                guard let graph = several ? try? host.registry.graph(of: name, root: rootKey)
                                          : try host.registry.graph(of: name, root: rootKey) else { continue }
                if names.count > 1 { print((drawn > 0 ? "\n" : "") + "configuration '\(MessageText.terminalSafe(name))':") }
                drawn += 1
                switch format {
                // (Names are the script's: nothing in them reaches a terminal raw. JSON escapes its own.)
                case .tree: print(MessageText.terminalSafe(graph.renderTree()))
                case .dot: print(MessageText.terminalSafe(graph.renderDOT()))
                case .json: print(graph.renderJSON())
                case .mermaid: print(MessageText.terminalSafe(graph.renderMermaid()))
                }
            }
            // No configuration holds the root: the first one's error names the nearest keys.
            if drawn == 0, let first = names.first { _ = try host.registry.graph(of: first, root: rootKey) }
        } catch {
            reportError(error)
            DryDeclaration.finish(1)
        }
        DryDeclaration.finish(0)
    }
}
