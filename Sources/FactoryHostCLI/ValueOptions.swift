import ArgumentParser

/// `--values FILE` and `--set name=value`, as every command that loads
/// scripts takes them (run, repl, check, graph, test): configuration values
/// for the scripts' `value "name" { … }` declarations, later sources winning
/// (a declaration's default, then values files in order, then its
/// environment variable, then `--set`).
struct ValueOptions: ParsableArguments {
    @Option(name: .customLong("set"), help: ArgumentHelp("Give a configuration value (repeatable; wins over every other source).", valueName: "name=value"))
    var assignments: [String] = []

    @Option(name: .customLong("values"), help: ArgumentHelp("A Lua file returning a table of configuration values (repeatable; later files win).", valueName: "file"), completion: .file(extensions: ["lua"]))
    var files: [String] = []

    func validate() throws {
        for assignment in assignments where !HostSetup.isAssignment(assignment) {
            throw ValidationError("--set takes name=value (got '\(assignment)')")
        }
    }

    /// Puts them in `setup`.
    func apply(to setup: inout HostSetup) {
        setup.valueFiles += files
        setup.valueAssignments += assignments
    }

    /// Values already read (by a plain command line).
    static func given(files: [String], assignments: [String]) -> ValueOptions {
        var options = ValueOptions()
        options.files = files
        options.assignments = assignments
        return options
    }
}
