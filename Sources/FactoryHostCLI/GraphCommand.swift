import ArgumentParser
import FactoryRegistry
import FactoryScripting
import LuaBridge

/// `factoryhost graph script.lua --config NAME [--root TYPE] --format tree|dot|json`.
struct GraphCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Print a configuration's object graph as a tree, Graphviz DOT or JSON.",
        discussion: """
            Nodes show each registration's type, name, scope, runtime arguments and origin; \
            edges show the dependency's label, and providers are marked. Nothing is built: \
            the script runs up to the first container it would create.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case tree, dot, json
    }

    @Option(help: ArgumentHelp("The configuration to draw.", valueName: "name"))
    var config: String

    @Option(help: ArgumentHelp("Draw only what this key (`Type` or `Type#name`) needs.", valueName: "key"))
    var root: String?

    @Option(help: "Output format.")
    var format: Format = .tree

    @Option(name: .customLong("plugin-path"), help: ArgumentHelp("Directories of Lua plugins (colon-separated; repeatable).", valueName: "dirs"))
    var pluginPath: [String] = []

    @Argument(help: ArgumentHelp("The script that declares the configurations.", valueName: "script"))
    var script: String

    func run() throws {
        do {
            let host = try HostSetup(pluginPaths: pluginPath).makeHost()
            try host.declare(file: script)
            let rootKey = try root.map { try host.serviceKey(parsing: $0) }
            let graph = try host.registry.graph(of: config, root: rootKey)
            switch format {
            case .tree: print(graph.renderTree())
            case .dot: print(graph.renderDOT())
            case .json: print(graph.renderJSON())
            }
        } catch {
            reportError(error)
            throw ExitCode(1)
        }
    }
}
