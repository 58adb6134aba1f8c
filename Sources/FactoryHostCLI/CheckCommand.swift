import ArgumentParser
import FactoryRegistry
import FactoryScripting
import LuaBridge

/// `factoryhost check script.lua`: validates every configuration without
/// constructing anything.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate every configuration a script declares, building nothing.",
        discussion: """
            Runs the script up to the first container it would create (declarations only), \
            then checks every configuration: missing and mistyped dependencies, cycles, \
            captive dependencies, unknown scopes, argument types. Prints every problem with \
            its file:line; exits 1 if there is any.
            """
    )

    @Option(name: .customLong("plugin-path"), help: ArgumentHelp("Directories of Lua plugins (colon-separated; repeatable).", valueName: "dirs"))
    var pluginPath: [String] = []

    @Option(help: ArgumentHelp("Check only this configuration.", valueName: "name"))
    var config: String?

    @Argument(help: ArgumentHelp("The script that declares the configurations.", valueName: "script"))
    var script: String

    func run() throws {
        let host: FactoryHost
        do {
            host = try HostSetup(pluginPaths: pluginPath).makeHost()
            try host.declare(file: script)
        } catch {
            reportError(error)
            throw ExitCode(1)
        }
        if let config, host.registry.configuration(config) == nil {
            reportError(RegistryError(.unknownConfiguration, "no configuration named '\(config)'",
                                      details: ["defined: " + host.registry.configurationNames.joined(separator: ", ")]))
            throw ExitCode(1)
        }
        let problems = host.check(config)
        for problem in problems { print(describe(problem)) }
        let names = config.map { [$0] } ?? host.registry.configurationNames
        let registrations = names.reduce(0) { $0 + ((try? host.registry.registrations(in: $1).count) ?? 0) }
        let summary = "\(names.count) configuration\(names.count == 1 ? "" : "s"), \(registrations) registration\(registrations == 1 ? "" : "s")"
        if problems.isEmpty {
            print("ok: \(summary), no problems")
        } else {
            print("\(problems.count) problem\(problems.count == 1 ? "" : "s") in \(summary)")
            throw ExitCode(1)
        }
    }
}
