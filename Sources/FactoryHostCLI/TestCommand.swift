import ArgumentParser
import FactoryScripting
import LuaBridge
import ScenarioTesting
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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

    @Argument(help: ArgumentHelp("Spec files, or directories searched for *_spec.lua (default: the current directory).", valueName: "paths"))
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

    @Option(help: ArgumentHelp("Each test's time limit (seconds, or with ms, s or m; default 5s).", valueName: "duration"))
    var timeout: String = "5s"

    @Option(help: ArgumentHelp("The report on standard output: text or tap.", valueName: "format"))
    var reporter: String = "text"

    @Option(help: ArgumentHelp("Also write a JUnit XML report to this file.", valueName: "file"))
    var junit: String?

    @Option(name: [.customShort("j"), .customLong("jobs")], help: ArgumentHelp("Run this many files at once, one host per worker (default 1).", valueName: "n"))
    var jobs: Int = 1

    @Option(help: ArgumentHelp("The configuration tests get a container of when their describe names none.", valueName: "name"))
    var config: String?

    @Option(name: .customLong("plugin-path"), help: ArgumentHelp("Directories of Lua plugins (colon-separated; repeatable; also $FACTORYHOST_PLUGIN_PATH).", valueName: "dirs"))
    var pluginPath: [String] = []

    // A worker process's part of the run (see TestOptions.workerCommand).
    @Option(name: .customLong("worker-file"), help: .hidden) var workerFile: String?
    @Option(name: .customLong("worker-position"), help: .hidden) var workerPosition: Int = 0
    @Option(name: .customLong("worker-skip"), help: .hidden) var workerSkip: Int = 0

    func validate() throws {
        if Limits.duration(timeout) == nil {
            throw ValidationError("--timeout: '\(timeout)' is not a duration (try 2, 0.5, 500ms or 1m)")
        }
        if reporter != "text" && reporter != "tap" {
            throw ValidationError("--reporter: '\(reporter)' is not a reporter (text or tap)")
        }
        if jobs < 1 || jobs > 256 { throw ValidationError("--jobs: give a number from 1 to 256 (got \(jobs))") }
        for pattern in filterPatterns {
            if let problem = Self.patternProblem(pattern) { throw ValidationError("--filter-pattern '\(pattern)': \(problem)") }
        }
    }

    func run() throws {
        if let workerFile {
            let status = makeRunner(files: [workerFile], seed: seed).runWorker(file: workerFile, position: workerPosition, skip: workerSkip)
            fflush(nil)
            throw ExitCode(status)
        }
        let files: [String]
        do {
            files = try SpecDiscovery.files(in: paths.isEmpty ? ["."] : paths)
        } catch {
            reportError(error)
            throw ExitCode(1)
        }
        if files.isEmpty {
            reportError(DiscoveryError(message: "no *_spec.lua files under \((paths.isEmpty ? ["."] : paths).joined(separator: ", "))"))
            throw ExitCode(1)
        }
        let shuffleSeed = seed ?? (shuffle ? UInt64.random(in: 1...999_999) : nil)
        var runner = makeRunner(files: files, seed: shuffleSeed)
        if !list, let executable = Self.ownExecutable() {
            // Each file in a worker process, so a test stuck in C code past its
            // limit ends its worker, not the run.
            var options = runner.options
            options.workerCommand = [executable, "test"] + workerArguments(seed: shuffleSeed)
            runner = TestRunner(files: files, options: options, makeHost: runner.makeHost)
        }
        if list {
            try listTests(runner)
            return
        }
        var reporters: [any TestReporter] = [
            reporter == "tap" ? TAPReporter() : TextReporter(colors: Self.colorsWanted()),
        ]
        let junitReporter = junit.map(JUnitReporter.init(path:))
        if let junitReporter { reporters.append(junitReporter) }
        let outcome = runner.run(reporter: ReporterGroup(reporters))
        fflush(nil)
        if let problem = junitReporter?.writeError {
            writeToStandardError("factoryhost: \(problem)\n")
            throw ExitCode(1)
        }
        let ran = outcome.summary.passed + outcome.summary.failed + outcome.summary.skipped
        if ran == 0 {
            writeToStandardError("factoryhost: no tests matched (\(files.count) spec file\(files.count == 1 ? "" : "s") searched)\n")
            throw ExitCode(1)
        }
        if outcome.summary.failed > 0 { throw ExitCode(1) }
    }

    /// The runner for `files` with this command's options.
    private func makeRunner(files: [String], seed: UInt64?) -> TestRunner {
        var options = TestOptions()
        options.selection = TestSelection(texts: filters, patterns: filterPatterns, tags: tags, excludedTags: excludedTags)
        options.timeLimit = Limits.duration(timeout).map(Self.seconds) ?? 5
        options.defaultConfiguration = config
        options.failFast = failFast
        options.shuffleSeed = seed
        options.jobs = jobs
        let setup = HostSetup(pluginPaths: pluginPath)
        let plugins = UncheckedPlugins(FactoryHostCLI.plugins)
        let searchPath = setup.searchPath
        return TestRunner(files: files, options: options) {
            let host = try FactoryHost(plugins: plugins.value)
            try host.loadLuaPlugins(searchPath: searchPath)
            return host
        }
    }

    /// The options a worker needs to select, order and time tests as this run does.
    private func workerArguments(seed: UInt64?) -> [String] {
        // `--name=value`: a value starting with "-" stays a value.
        var arguments = ["--timeout=\(timeout)"]
        for filter in filters { arguments.append("--filter=\(filter)") }
        for pattern in filterPatterns { arguments.append("--filter-pattern=\(pattern)") }
        for tag in tags { arguments.append("--tag=\(tag)") }
        for tag in excludedTags { arguments.append("--exclude-tag=\(tag)") }
        if failFast { arguments.append("--fail-fast") }
        if let seed { arguments.append("--seed=\(seed)") }
        if let config { arguments.append("--config=\(config)") }
        for path in pluginPath { arguments.append("--plugin-path=\(path)") }
        return arguments
    }

    /// This program's own executable, to start workers with.
    static func ownExecutable() -> String? {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #elseif canImport(Darwin)
        var size: UInt32 = 4096
        var buffer = [CChar](repeating: 0, count: Int(size))
        guard _NSGetExecutablePath(&buffer, &size) == 0 else { return nil }
        return String(cString: buffer)
        #else
        return nil
        #endif
    }

    private func listTests(_ runner: TestRunner) throws {
        var count = 0
        var failed = false
        for entry in runner.list() {
            if let failure = entry.failure {
                print("\(entry.file): cannot be listed: \(failure.headline)")
                failed = true
            }
            for test in entry.tests {
                count += 1
                var line = "\(test.location): \(test.name)"
                if !test.tags.isEmpty { line += " [\(test.tags.joined(separator: ", "))]" }
                if test.isPending { line += " (pending)" }
                print(line)
            }
        }
        print("\(count) test\(count == 1 ? "" : "s") in \(runner.files.count) file\(runner.files.count == 1 ? "" : "s")")
        if failed { throw ExitCode(1) }
    }

    /// Colour on a terminal, unless NO_COLOR is set.
    static func colorsWanted() -> Bool {
        isatty(1) != 0 && getenv("NO_COLOR") == nil && (getenv("TERM").map { String(cString: $0) != "dumb" } ?? true)
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

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// The binary's plugins, handed to the worker threads that build hosts.
/// (Plugins install types into each host; they hold no per-host state.)
struct UncheckedPlugins: @unchecked Sendable {
    let value: [any FactoryPlugin]
    init(_ value: [any FactoryPlugin]) { self.value = value }
}
