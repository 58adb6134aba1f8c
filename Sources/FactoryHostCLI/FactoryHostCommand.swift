import ArgumentParser

/// `factoryhost` — the command-line tool.
struct FactoryHostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "factoryhost",
        abstract: "A typed factory registry for Swift, scripted in Lua 5.4.",
        discussion: """
            Scripts declare configurations and register factories; Swift checks types \
            and lifetimes. `factoryhost run script.lua` runs a script like the stock \
            lua5.4 interpreter does; `factoryhost repl` (or plain `factoryhost` on a terminal) \
            is a prompt for exploring configurations and live object graphs.
            """,
        version: FactoryHostVersion.current,
        subcommands: [RunCommand.self, ReplCommand.self, CheckCommand.self, GraphCommand.self, TestCommand.self, TypesCommand.self]
    )
}

/// The version `factoryhost --version` prints.
enum FactoryHostVersion {
    static let current = "0.1.0"
}
