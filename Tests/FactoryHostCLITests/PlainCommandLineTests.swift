import ArgumentParser
@testable import FactoryHostCLI
import Testing

/// `check` and `graph` read their plain forms without the argument parser
/// (for start-up time). Every form the fast reading takes must mean what
/// the parser makes of it; everything else must be left to the parser.
@Suite struct PlainCommandLineTests {
    /// What the argument parser makes of `argv` (program name at 0).
    private func parsed(_ argv: [String]) throws -> any ParsableCommand {
        try FactoryHostCommand.parseAsRoot(Array(argv.dropFirst()))
    }

    @Test(arguments: [
        ["fh", "check", "app.lua"],
        ["fh", "check", "-"],
        ["fh", "check", "app.lua", "one", "two words"],
        ["fh", "check", "--config", "app", "app.lua"],
        ["fh", "check", "--config=app-tests", "--format", "json", "app.lua", "x"],
        ["fh", "check", "--format=text", "--timeout", "500ms", "app.lua"],
        ["fh", "check", "--plugin-path", "a:b", "--plugin-path=c", "app.lua"],
        ["fh", "check", "--timeout=2", "--config", "check", "app.lua"],
        ["fh", "check", "--set", "a=1", "--set=b.c=x=y", "--values", "v.lua", "--values=w.lua", "app.lua"],
    ])
    func plainCheckFormsMeanWhatTheParserReads(_ argv: [String]) throws {
        let fast = try #require(CheckCommand.plainSettings(argv))
        let command = try #require(try parsed(argv) as? CheckCommand)
        #expect(fast == command.settings)
    }

    @Test(arguments: [
        ["fh", "graph", "--config", "app", "app.lua"],
        ["fh", "graph", "app.lua"],
        ["fh", "graph", "--root", "Store", "--format", "json", "app.lua"],
        ["fh", "graph", "--config", "app", "--format", "mermaid", "app.lua"],
        ["fh", "graph", "--config=app", "--root", "Store#main", "--format", "dot", "app.lua", "arg"],
        ["fh", "graph", "--format=json", "--config", "app", "--plugin-path", "p", "--timeout", "1m", "-"],
        ["fh", "graph", "--config", "app", "--set", "url=http://x", "--values", "v.lua", "app.lua"],
    ])
    func plainGraphFormsMeanWhatTheParserReads(_ argv: [String]) throws {
        let fast = try #require(GraphCommand.plainSettings(argv))
        let command = try #require(try parsed(argv) as? GraphCommand)
        #expect(fast == command.settings)
    }

    @Test(arguments: [
        ["fh", "check"],                                        // no script
        ["fh", "check", "--help"],
        ["fh", "check", "-h", "app.lua"],
        ["fh", "check", "app.lua", "--config", "app"],          // an option after the script: the parser reads it
        ["fh", "check", "app.lua", "--", "--config"],           // `--`
        ["fh", "check", "app.lua", "-v"],
        ["fh", "check", "--config", "a", "--config", "b", "app.lua"],   // repeated single option
        ["fh", "check", "--config", "--format", "app.lua"],     // a value that looks like an option
        ["fh", "check", "--config=", "app.lua"],                // empty inline value
        ["fh", "check", "--format", "yaml", "app.lua"],         // invalid value: the parser reports it
        ["fh", "check", "--timeout", "soon", "app.lua"],
        ["fh", "check", "--memory-limit", "1M", "app.lua"],     // not check's option
        ["fh", "check", "--config"],                            // missing value
        ["fh", "run", "app.lua"],                               // another command
        ["fh", "graph", "--config", "app", "--format", "tree", "--format", "dot", "app.lua"],
        ["fh", "check", "--set", "novalue", "app.lua"],          // --set without name=value: the parser says so
        ["fh", "check", "--set", "=x", "app.lua"],
        ["fh", "graph", "--config", "app", "--set", "x", "app.lua"],
    ])
    func otherFormsAreLeftToTheParser(_ argv: [String]) {
        #expect(CheckCommand.plainSettings(argv) == nil)
        #expect(GraphCommand.plainSettings(argv) == nil)
    }

    /// `test` (and every worker it starts) reads its plain forms without
    /// the parser too; each must mean what the parser reads.
    @Test(arguments: [
        ["fh", "test"],
        ["fh", "test", "specs", "more/x_spec.lua"],
        ["fh", "test", "--filter", "a", "--filter=b", "-j", "2", "--fail-fast", "x_spec.lua", "y"],
        ["fh", "test", "--timeout=1s", "--reporter", "tap", "--junit", "out.xml", "--seed", "42", "--shuffle", "--list",
         "--config", "app", "--plugin-path", "p", "--plugin-path=q", "--tag", "t", "--exclude-tag=u", "--filter-pattern", "^a"],
        ["fh", "test", "--jobs=256", "--timeout", "500ms", "."],
        ["fh", "test", "--repeat", "3", "--fail-fast", "x_spec.lua"],
        ["fh", "test", "--repeat=10000", "."],
        ["fh", "test", "--coverage", "--coverage-min", "75.5", "--coverage-json=c.json", "."],
        ["fh", "test", "--reporter=json", "--profile", "5", "."],
        ["fh", "test", "--color", "always", "."],
        ["fh", "test", "--timeout=5s", "--worker-file=x_spec.lua", "--worker-position=3", "--worker-skip=2", "--filter=-x"],
        ["fh", "test", "--set", "a=1", "--set=b=2", "--values", "v.lua", "specs"],
    ])
    func plainTestFormsMeanWhatTheParserReads(_ argv: [String]) throws {
        let fast = try #require(TestSettings.plain(argv))
        let command = try #require(try parsed(argv) as? TestCommand)
        #expect(fast == command.settings)
    }

    @Test(arguments: [
        ["fh", "test", "--help"],
        ["fh", "test", "-h"],
        ["fh", "test", "x_spec.lua", "--filter", "a"],          // an option after a path
        ["fh", "test", "--", "x_spec.lua"],
        ["fh", "test", "-"],
        ["fh", "test", "--jobs", "0"],                          // values the parser refuses
        ["fh", "test", "-j", "300"],
        ["fh", "test", "--repeat", "0", "."],
        ["fh", "test", "--repeat", "many", "."],
        ["fh", "test", "--repeat", "2", "--repeat", "3", "."],
        ["fh", "test", "--coverage-min", "101", "."],
        ["fh", "test", "--coverage-min", "most", "."],
        ["fh", "test", "--profile", "0", "."],
        ["fh", "test", "--color", "sometimes", "."],
        ["fh", "test", "--repeat", "2", "--reporter", "json", "."],
        ["fh", "test", "-j2"],
        ["fh", "test", "-j=2"],
        ["fh", "test", "--reporter", "xml"],
        ["fh", "test", "--timeout", "soon"],
        ["fh", "test", "--filter-pattern", "(a"],
        ["fh", "test", "--seed", "x"],
        ["fh", "test", "--seed", "-1"],
        ["fh", "test", "--worker-position=one"],
        ["fh", "test", "--worker-file=x_spec.lua", "--worker-skip=-1"],     // once a trap in the worker
        ["fh", "test", "--worker-file=x_spec.lua", "--worker-position=9223372036854775807"],
        ["fh", "test", "--list", "--list"],                     // a repeated flag or single option
        ["fh", "test", "--config", "a", "--config", "b"],
        ["fh", "test", "--fail-fast=yes"],
        ["fh", "test", "--filter"],                             // missing values
        ["fh", "test", "--filter="],
        ["fh", "test", "--config", "--list"],
        ["fh", "test", "--memory-limit", "1M"],                 // not test's option
        ["fh", "check", "x_spec.lua"],
        ["fh", "test", "--set", "novalue"],
    ])
    func otherTestFormsAreLeftToTheParser(_ argv: [String]) {
        #expect(TestSettings.plain(argv) == nil)
    }

    /// A worker reads the options its run was given, empty values included:
    /// `--filter=` reads as a missing value, so an empty one goes as a word.
    @Test func workersGetEveryValueTheRunWasGiven() throws {
        let given = TestSettings(filters: ["", "-x"], tags: [""], timeout: "2s", config: "", pluginPaths: [""])
        let argv = ["fh", "test"] + given.workerArguments(seed: 7) + ["--worker-file=x_spec.lua"]
        let fast = try #require(TestSettings.plain(argv), "\(argv)")
        let command = try #require(try parsed(argv) as? TestCommand)
        #expect(fast == command.settings)
        #expect(fast.filters == ["", "-x"] && fast.tags == [""] && fast.config == "" && fast.pluginPaths == [""])
        #expect(fast.timeout == "2s" && fast.seed == 7 && fast.workerFile == "x_spec.lua")
    }

    /// The forms the fast reading leaves alone still parse (or fail) in
    /// the parser as they always did: the words after the script reach it.
    @Test func theParserStillReadsOptionsAfterTheScript() throws {
        let command = try #require(try parsed(["fh", "check", "app.lua", "--config", "app"]) as? CheckCommand)
        #expect(command.settings.configuration == "app")
        #expect(command.settings.arguments.isEmpty)
    }

    /// `run`'s (and `repl`'s) fast reading leaves the same odd forms to the
    /// parser. A value that looks like an option was once taken as the
    /// value: `run --config --sandbox x.lua` ran x.lua without the sandbox.
    @Test(arguments: [
        ["fh", "run", "--config", "--sandbox", "x.lua"],
        ["fh", "run", "--config", "--timeout", "5", "x.lua"],
        ["fh", "run", "--config", "-i", "x.lua"],
        ["fh", "run", "--plugin-path", "--sandbox", "x.lua"],
        ["fh", "run", "--plugin-path", "--", "x.lua"],
        ["fh", "run", "--timeout", "-5", "x.lua"],
        ["fh", "run", "--config=", "x.lua"],
        ["fh", "run", "--plugin-path=", "x.lua"],
        ["fh", "run", "--sandbox", "--allow=", "x.lua"],
    ])
    func oddRunFormsAreLeftToTheParser(_ argv: [String]) throws {
        #expect(FastRunArguments.parse(argv) == nil)
    }

    /// A sample of each option of `run` and `repl`, as a user gives it.
    private static func sample(_ option: RunOption) -> [String] {
        switch option {
        case .sandbox: return ["--sandbox"]
        case .allow: return ["--sandbox", "--allow", "files,network", "--allow=processes"]
        case .memoryLimit: return ["--memory-limit", "64M"]
        case .timeout: return ["--timeout=1.5s"]
        case .config: return ["--config", "app-tests", "--config=app"]
        case .pluginPath: return ["--plugin-path", "a:b", "--plugin-path=c"]
        case .set: return ["--set", "url=http://x", "--set=n=2"]
        case .values: return ["--values", "v.lua", "--values=w.lua"]
        }
    }

    /// Every option of `run` works through both readings and means the same
    /// in each: both apply it through one table (`RunOption`).
    @Test(arguments: RunOption.allCases)
    func everyRunOptionMeansTheSameThroughBothReadings(_ option: RunOption) throws {
        let argv = ["fh", "run"] + Self.sample(option) + ["x.lua", "arg"]
        let fast = try #require(FastRunArguments.parse(argv), "\(argv)")
        let command = try #require(try parsed(argv) as? RunCommand)
        #expect(fast == command.settings(commandLine: argv))
        #expect(fast != FastRunArguments.parse(["fh", "run", "x.lua", "arg"]), "\(option) changed nothing")
        // `repl` reads the same options (its fast start reads them as run's).
        let repl = ["fh", "repl"] + Self.sample(option) + ["x.lua", "arg"]
        let session = try #require(try parsed(repl) as? ReplCommand).settings(commandLine: repl)
        #expect(session.setup == fast.setup && session.configuration == fast.configuration)
        #expect(session.runner.libraries == fast.runner.libraries && session.runner.memoryLimit == fast.runner.memoryLimit
                && session.runner.timeLimit == fast.runner.timeLimit && session.runner.scriptIndex == fast.runner.scriptIndex)
    }

    /// The parser knows no option of `run` or `repl` that the table lacks
    /// (one added to a command alone would be read one way only).
    @Test func theParserKnowsNoRunOptionTheTableLacks() {
        for (command, help) in [("run", RunCommand.helpMessage(columns: 500)), ("repl", ReplCommand.helpMessage(columns: 500))] {
            let named = Set(help.matches(of: /--[a-z][a-z-]*/).map { String($0.output) })
            #expect(named.subtracting(["--help"]) == Set(RunOption.allCases.map(\.rawValue)), "\(command)")
        }
    }

    /// A value each option of check, graph and test takes, as a user gives it (not the default).
    private static func value(for name: String) -> String {
        switch name {
        case "--format": return "json"
        case "--timeout": return "2s"
        case "--set": return "url=http://x"
        case "--seed", "--profile", "--repeat", "--worker-position", "--worker-skip": return "3"
        case "--jobs": return "2"
        case "--coverage-min": return "50"
        case "--color": return "never"
        case "--reporter": return "tap"
        case "--filter-pattern": return "^a"
        default: return "v"
        }
    }

    /// Every option of check, graph and test works through both readings and
    /// means the same in each (both apply it through the command's table),
    /// and changes something.
    @Test func everyOptionOfCheckGraphAndTestMeansTheSameThroughBothReadings() throws {
        for option in CheckOption.allCases {
            let argv = ["fh", "check", option.rawValue, Self.value(for: option.rawValue), "x.lua", "arg"]
            let fast = try #require(CheckCommand.plainSettings(argv), "\(argv)")
            #expect(fast == (try #require(try parsed(argv) as? CheckCommand)).settings, "\(argv)")
            #expect(fast != CheckCommand.plainSettings(["fh", "check", "x.lua", "arg"]), "\(option) changed nothing")
        }
        for option in GraphOption.allCases {
            let argv = ["fh", "graph", option.rawValue, Self.value(for: option.rawValue), "x.lua", "arg"]
            let fast = try #require(GraphCommand.plainSettings(argv), "\(argv)")
            #expect(fast == (try #require(try parsed(argv) as? GraphCommand)).settings, "\(argv)")
            #expect(fast != GraphCommand.plainSettings(["fh", "graph", "x.lua", "arg"]), "\(option) changed nothing")
        }
        for option in TestOption.allCases {
            let argv = ["fh", "test"] + (option.takesValue ? ["\(option.rawValue)=\(Self.value(for: option.rawValue))"] : [option.rawValue]) + ["specs"]
            let fast = try #require(TestSettings.plain(argv), "\(argv)")
            #expect(fast == (try #require(try parsed(argv) as? TestCommand)).settings, "\(argv)")
            #expect(fast != TestSettings.plain(["fh", "test", "specs"]), "\(option) changed nothing")
        }
    }

    /// The parser knows no option of check, graph or test that the table
    /// lacks, nor the table one the parser lacks (hidden ones included).
    @Test func theParserAndTheTablesKnowTheSameOptions() {
        func named(_ help: String) -> Set<String> {
            Set(help.matches(of: /--[a-z][a-z-]*/).map { String($0.output) }).subtracting(["--help"])
        }
        #expect(named(CheckCommand.helpMessage(columns: 500)) == Set(CheckOption.allCases.map(\.rawValue)))
        #expect(named(GraphCommand.helpMessage(columns: 500)) == Set(GraphOption.allCases.map(\.rawValue)))
        let worker: Set<String> = ["--worker-file", "--worker-position", "--worker-skip"]          // hidden from help
        #expect(named(TestCommand.helpMessage(columns: 500)).union(worker).subtracting(["--format"])
                == Set(TestOption.allCases.map(\.rawValue)))
        #expect(TestOption.named("--format") == .reporter && TestOption.named("-j") == .jobs)
    }

    /// Which the parser then refuses: a missing value, not a configuration named "--sandbox".
    @Test func theParserRefusesAnOptionAsAValue() {
        #expect(throws: (any Error).self) { try parsed(["fh", "run", "--config", "--sandbox", "x.lua"]) }
    }

    @Test func plainRunFormsAreStillReadFast() throws {
        let settings = try #require(FastRunArguments.parse(["fh", "run", "--sandbox", "--config", "app", "--timeout=2", "x.lua", "-v"]))
        #expect(settings.configuration == "app")
        #expect(settings.runner.libraries == .sandboxed)
        #expect(settings.runner.scriptIndex == 6)
    }
}
