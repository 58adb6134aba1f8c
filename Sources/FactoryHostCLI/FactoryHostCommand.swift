import ArgumentParser

import FactoryhostSupport

/// `factoryhost` — the command-line tool (under a custom host's own name, that name).
struct FactoryHostCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        let name = ProgramName.current
        return CommandConfiguration(
        commandName: name,
        abstract: "A typed factory registry for Swift, scripted in Lua 5.4.",
        discussion: """
            Scripts declare configurations and register factories; Swift checks types \
            and lifetimes. `\(name) run script.lua` runs a script like the stock \
            lua5.4 interpreter does; `\(name) repl` (or plain `\(name)` on a terminal) \
            is a prompt for exploring configurations and live object graphs.
            """,
        version: FactoryHostVersion.current,
        subcommands: [RunCommand.self, ReplCommand.self, CheckCommand.self, GraphCommand.self, TestCommand.self, TypesCommand.self]
        )
    }
}

/// The version `factoryhost --version` prints.
enum FactoryHostVersion {
    static let current = "0.1.0"
}
