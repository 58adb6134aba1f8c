import ArgumentParser
import FactoryScripting
import FactoryhostSupport
import LuaBridge
import LuaInterpreter
import ScenarioTesting

/// `factoryhost test [paths…]`: runs `*_spec.lua` scenario files.
struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run scripted scenarios (`*_spec.lua` files: describe, it, expect).",
        discussion: """
            Every spec file runs in a fresh host; every test gets a fresh container of the \
            configuration its describe names ({ config = "app-tests" }) or --config, so no \
            state leaks between tests. Ends with `N passed, N failed[, N skipped]`; exits 1 \
            if any test failed.
            """
    )

    @Argument(help: ArgumentHelp("Spec files, or directories searched for *_spec.lua (default: the current directory).", valueName: "paths"), completion: .file())
    var paths: [String] = []

    @Option(name: .customLong("filter"), help: ArgumentHelp("Run only tests whose full name (\"describe > it\") contains this text (repeatable; plain text: app-tests matches app-tests).", valueName: "text"))
    var filters: [String] = []

    @Option(name: .customLong("filter-pattern"), help: ArgumentHelp("Run only tests whose full name matches this Lua pattern (repeatable; with --filter, a test matching either runs).", valueName: "pattern"))
    var filterPatterns: [String] = []

    @Option(name: .customLong("tag"), help: ArgumentHelp("Run only tests with this tag (repeatable).", valueName: "tag"))
    var tags: [String] = []

    @Option(name: .customLong("exclude-tag"), help: ArgumentHelp("Skip tests with this tag (repeatable).", valueName: "tag"))
    var excludedTags: [String] = []

    @Flag(help: "List the selected tests (file:line and name) without running them.")
    var list = false

    @Flag(name: .customLong("fail-fast"), help: "Stop after the first failure.")
    var failFast = false

    @Flag(help: "Run files and tests in a random order (the seed is printed).")
    var shuffle = false

    @Option(help: ArgumentHelp("Shuffle with this seed (implies --shuffle).", valueName: "n"))
    var seed: UInt64?

    @Option(help: ArgumentHelp("Each test's time limit (seconds, or with ms, s or m).", valueName: "duration"))
    var timeout: String = "5s"

    @Option(name: [.customLong("format"), .customLong("reporter")], help: ArgumentHelp("The report on standard output: text, tap or json (JSON Lines: an object per test, with its duration, then the summary; --reporter is the same option).", valueName: "format"), completion: .list(["text", "tap", "json"]))
    var reporter: String = "text"

    @Option(help: ArgumentHelp("Also write a JUnit XML report to this file.", valueName: "file"), completion: .file())
    var junit: String?

    @Option(name: [.customShort("j"), .customLong("jobs")], help: ArgumentHelp("Run this many files at once, one host per worker.", valueName: "n"))
    var jobs: Int = 1

    @Option(help: ArgumentHelp("After the run, list this many of the slowest tests with their durations (with the text report).", valueName: "n"))
    var profile: Int?

    @Flag(help: "After the run, list the registrations the tests never built (of every configuration the spec files declare), with where each was declared.")
    var coverage = false

    @Option(name: .customLong("coverage-json"), help: ArgumentHelp("Write every registration and whether the tests built it to this JSON file (implies recording coverage).", valueName: "file"), completion: .file())
    var coverageJSON: String?

    @Option(name: .customLong("coverage-min"), help: ArgumentHelp("Fail the run when fewer than this percentage of the registrations were built.", valueName: "percent"))
    var coverageMin: Double?

    @Option(help: ArgumentHelp("Colour the text report: auto (on a terminal, unless NO_COLOR is set), always or never.", valueName: "when"), completion: .list(["auto", "always", "never"]))
    var color: String = "auto"

    @Option(name: .customLong("repeat"), help: ArgumentHelp("Run the selection this many times, each run reported (with --fail-fast, stop after the first failing run; with --shuffle and no --seed, a new order each run).", valueName: "n"))
    var repeatCount: Int = 1

    @Option(help: ArgumentHelp("The configuration tests get a container of when their describe names none.", valueName: "name"))
    var config: String?

    @Option(name: .customLong("plugin-path"), help: ArgumentHelp("Directories of Lua plugins (colon-separated; repeatable; also $FACTORYHOST_PLUGIN_PATH).", valueName: "dirs"), completion: .directory)
    var pluginPath: [String] = []

    @OptionGroup var valueOptions: ValueOptions

    // A worker process's part of the run (see TestOptions.workerCommand).
    @Option(name: .customLong("worker-file"), help: .hidden) var workerFile: String?
    @Option(name: .customLong("worker-position"), help: .hidden) var workerPosition: Int = 0
    @Option(name: .customLong("worker-skip"), help: .hidden) var workerSkip: Int = 0

    func validate() throws {
        if let problem = settings.problem { throw ValidationError(problem) }
    }

    func run() throws {
        let status = settings.run()
        if status != 0 { throw ExitCode(status) }
    }

    /// What the parser read.
    var settings: TestSettings {
        var settings = TestSettings(paths: paths)
        func flag(_ on: Bool) -> [String] { on ? [""] : [] }
        func one(_ value: (some CustomStringConvertible)?) -> [String] { value.map { [$0.description] } ?? [] }
        TestOption.apply([
            (.filter, filters), (.filterPattern, filterPatterns), (.tag, tags), (.excludeTag, excludedTags),
            (.list, flag(list)), (.failFast, flag(failFast)), (.shuffle, flag(shuffle)), (.seed, one(seed)),
            (.timeout, [timeout]), (.reporter, [reporter]), (.junit, one(junit)), (.jobs, [String(jobs)]), (.profile, one(profile)),
            (.coverage, flag(coverage)), (.coverageJSON, one(coverageJSON)), (.coverageMin, one(coverageMin)), (.color, [color]),
            (.repeatCount, [String(repeatCount)]), (.config, one(config)), (.pluginPath, pluginPath),
            (.values, valueOptions.files), (.set, valueOptions.assignments),
            (.workerFile, one(workerFile)), (.workerPosition, [String(workerPosition)]), (.workerSkip, [String(workerSkip)]),
        ], to: &settings)
        return settings
    }

    /// This program's own executable, to start workers with.
    static func ownExecutable() -> String? { executablePath() }

    /// Colour with `--color always`, never with `never`; with `auto`, on a
    /// terminal unless NO_COLOR is set (or TERM is dumb).
    static func colorsWanted(_ mode: String = "auto") -> Bool {
        if mode == "always" { return true }
        if mode == "never" { return false }
        return isatty(1) != 0 && getenv("NO_COLOR") == nil && (getenv("TERM").map { String(cString: $0) != "dumb" } ?? true)
    }

    /// Why `pattern` is not a Lua pattern, if it is not — checked up front,
    /// as Lua's own matcher finds a malformed pattern only where it gets to.
    static func patternProblem(_ pattern: String) -> String? {
        let p = Array(pattern.utf8)
        var i = 0
        var open: [Int] = []                 // the captures open now, by number
        var opened = 0
        var finished = Set<Int>()
        while i < p.count {
            switch p[i] {
            case UInt8(ascii: "("):
                opened += 1
                open.append(opened)
                i += 1
            case UInt8(ascii: ")"):
                guard let capture = open.popLast() else { return "invalid pattern capture (a ')' closes nothing)" }
                finished.insert(capture)
                i += 1
            case UInt8(ascii: "%"):
                guard i + 1 < p.count else { return "malformed pattern (ends with '%')" }
                switch p[i + 1] {
                case UInt8(ascii: "b"):
                    guard i + 3 < p.count else { return "malformed pattern (missing arguments to '%b')" }
                    i += 4
                case UInt8(ascii: "f"):
                    guard i + 2 < p.count, p[i + 2] == UInt8(ascii: "[") else { return "missing '[' after '%f' in pattern" }
                    guard let end = setEnd(p, from: i + 2) else { return "malformed pattern (missing ']')" }
                    i = end
                case UInt8(ascii: "0"):
                    return "invalid capture index %0"
                case UInt8(ascii: "1")...UInt8(ascii: "9"):
                    // A back-reference needs a capture that is closed by then.
                    let index = Int(p[i + 1] - UInt8(ascii: "0"))
                    if !finished.contains(index) { return "invalid capture index %\(index) (capture \(index) is not closed before it)" }
                    i += 2
                default:
                    i += 2
                }
            case UInt8(ascii: "["):
                guard let end = setEnd(p, from: i) else { return "malformed pattern (missing ']')" }
                i = end
            default:
                i += 1
            }
        }
        return open.isEmpty ? nil : "unfinished capture (a '(' is never closed)"
    }

    /// Where the set that opens at `start` (`[`) ends, as lstrlib's classEnd reads it.
    private static func setEnd(_ p: [UInt8], from start: Int) -> Int? {
        var j = start + 1
        if j < p.count, p[j] == UInt8(ascii: "^") { j += 1 }
        repeat {
            guard j < p.count else { return nil }
            let c = p[j]
            j += 1
            if c == UInt8(ascii: "%") {
                guard j < p.count else { return nil }
                j += 1
            }
        } while j >= p.count || p[j] != UInt8(ascii: "]")
        return j + 1
    }

    static func seconds(_ duration: Duration) -> Double { duration.inSeconds }
}
