import CLuaShim
import FactoryRegistry
import FactoryScripting
import FactoryhostSupport
import LuaBridge
import LuaInterpreter
import ScenarioTesting

/// `test` with its settings, however they were read: by the argument parser
/// (``TestCommand``) or, for its plain forms, by ``plain(_:)``.
///
/// Every file runs in a worker process, and the worker is this binary again
/// (`test --worker-file=…`), so both sides of a run start without the
/// argument parser: setting it up for `test`'s many options costs ~9M
/// instructions, more than the rest of a worker's start.
struct TestSettings: Equatable, ScriptInputSettings {
    var paths: [String] = []
    var filters: [String] = []
    var filterPatterns: [String] = []
    var tags: [String] = []
    var excludedTags: [String] = []
    var list = false
    var failFast = false
    var shuffle = false
    var seed: UInt64?
    var timeout = "5s"
    var reporter = "text"
    var junit: String?
    var jobs = 1
    /// `--color auto|always|never`.
    var color = "auto"
    /// How many times to run the whole selection (`--repeat`).
    var repeatCount = 1
    /// `--profile N`: list the N slowest tests after the run.
    var profile: Int?
    /// `--coverage`: report the registrations the tests never built.
    var coverage = false
    /// `--coverage-json FILE`: every registration and whether it was built, as JSON.
    var coverageJSON: String?
    /// `--coverage-min PERCENT`: fail the run below this registration coverage.
    var coverageMin: Double?
    /// Whether coverage is recorded at all (any of the three options).
    var recordsCoverage: Bool { coverage || coverageJSON != nil || coverageMin != nil }
    var config: String?
    var pluginPaths: [String] = []
    var valueFiles: [String] = []
    var valueAssignments: [String] = []
    var workerFile: String?
    var workerPosition = 0
    var workerSkip = 0

    /// Why these settings cannot run (what ``TestCommand/validate()`` reports), if they cannot.
    var problem: String? {
        if let problem = Limits.durationProblem(timeout) { return problem }
        if !["text", "tap", "json"].contains(reporter) {
            return "--format (--reporter): '\(reporter)' is not a format (text, tap or json)"
                + (NameSuggestion.closest(to: reporter, among: ["text", "tap", "json"]).map { ", did you mean '\($0)'?" } ?? "")
        }
        if !["auto", "always", "never"].contains(color) { return "--color: '\(color)' is not auto, always or never" }
        if let profile, profile < 1 || profile > 10_000 { return "--profile: give a number of tests from 1 to 10000 (got \(profile))" }
        if jobs < 1 || jobs > 256 { return "--jobs: give a number from 1 to 256 (got \(jobs))" }
        if repeatCount < 1 || repeatCount > 10_000 { return "--repeat: give a number from 1 to 10000 (got \(repeatCount))" }
        if let coverageMin, !(coverageMin >= 0 && coverageMin <= 100) {
            return "--coverage-min: give a percentage from 0 to 100 (got \(coverageMin))"
        }
        if let junit, let coverageJSON, ReportFile.identity(of: junit) == ReportFile.identity(of: coverageJSON) {
            return "--junit and --coverage-json name the same file (\(junit)): one report would be lost; give each its own path"
        }
        for (option, path) in [("--junit", junit), ("--coverage-json", coverageJSON)] {
            guard let path else { continue }
            if path.isEmpty { return "\(option): give a file path" }
            var info = stat()
            if stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR { return "\(option): \(path) is a directory; give a file path" }
        }
        if repeatCount > 1 && (reporter != "text" || junit != nil || coverageJSON != nil) {
            return "--repeat reports every run in text; a TAP or JSON stream, a JUnit file and a coverage file hold one run (leave out --repeat for them)"
        }
        // A worker's place in the run (made by the run itself, but a command line all the same).
        if workerPosition < 0 || workerPosition > 1 << 30 { return "--worker-position: give a number from 0 to \(1 << 30) (got \(workerPosition))" }
        if workerSkip < 0 || workerSkip > 1 << 30 { return "--worker-skip: give a number from 0 to \(1 << 30) (got \(workerSkip))" }
        for pattern in filterPatterns {
            if let problem = TestCommand.patternProblem(pattern) { return "--filter-pattern '\(pattern)': \(problem)" }
        }
        return nil
    }

    /// Runs the selected tests (or the worker's part of a run) and reports;
    /// returns the exit status — 1 if the report could not be written
    /// (`> /dev/full`: a CI step must not pass on a report nobody got).
    func run() -> Int32 {
        if let workerFile {
            let runner = makeRunner(files: [workerFile], seed: seed)
            if list { runner.listWorkerAndExit(file: workerFile) }
            runner.runWorkerAndExit(file: workerFile, position: workerPosition, skip: workerSkip)
        }
        return StandardOutput.flushed(runSelected())
    }

    private func runSelected() -> Int32 {
        var searched = paths.isEmpty ? ["."] : paths
        var files: [String]
        do {
            files = try SpecDiscovery.files(in: searched)
            // Plain `test` in a folder of a project without specs (its lib/, say): the project's specs, as from its root.
            if files.isEmpty, paths.isEmpty, let root = ProjectFile.root(of: ""), root != "./" {
                searched = [root]
                files = try SpecDiscovery.files(in: searched)
            }
        } catch {
            reportError(error)
            return 1
        }
        if files.isEmpty {
            reportError(DiscoveryError(message: "no *_spec.lua files under \(searched.joined(separator: ", "))"))
            return 1
        }
        // Every worker reads each values file: a FIFO would block them or be read once.
        for file in valueFiles {
            if let kind = Directory.specialKind(file) {
                reportError(DiscoveryError(message: "--values \(file): not a regular file (\(kind)): the test workers each "
                                           + "read it; give a file"))
                return 1
            }
        }
        // A values file that fails (loops, raises, returns no table) fails the
        // command once, here, under the tests' limit — not each spec file's
        // loading in its worker. (Its Lua is sandboxed: no spec code runs here.)
        do {
            let values = ConfigurationValues()
            for file in valueFiles { try values.addFile(file, timeLimit: HostSetup.valuesFileLimit(within: Limits.duration(timeout))) }
        } catch {
            reportError(error)
            return 1
        }
        // A report written over a file this run reads would destroy it: a
        // spec, a values file — or any Lua file (a module a spec requires,
        // the project file), which a report is never.
        // The running binary is read too: every worker starts from it (a report renamed over it ended the run).
        let inputs = Set((files + valueFiles + (TestCommand.ownExecutable().map { [$0] } ?? [])).map(ReportFile.identity(of:)))
        // A report that cannot be written is said before the run, each of them (one was found after a whole run, the other not at all).
        let unwritable = [("--junit", junit), ("--coverage-json", coverageJSON)].compactMap { option, path in
            path.flatMap { ReportFile(path: $0).problemBeforeWriting() }.map { "\(option): cannot write \(MessageText.oneLine(MessageText.bounded(path ?? "", limit: 1024))): \($0)" }
        }
        if !unwritable.isEmpty {
            for problem in unwritable { reportError(DiscoveryError(message: problem)) }
            return 1
        }
        for (option, path) in [("--junit", junit), ("--coverage-json", coverageJSON)] {
            guard let path else { continue }
            var info = stat()
            if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH) != 0 {
                reportError(DiscoveryError(message: "\(option) \(path) is an executable (a program, this one?): a report is XML or "
                                           + "JSON and would replace it; give the report another path"))
                return 1
            }
            // Standard output or error itself (/dev/stdout, or the file `>` writes): the report would replace the
            // text report, or mix with it.
            for (descriptor, stream) in [(Int32(1), "standard output"), (2, "standard error")] {
                var own = stat(), target = stat()
                if fstat(descriptor, &own) == 0, stat(path, &target) == 0, own.st_dev == target.st_dev, own.st_ino == target.st_ino {
                    reportError(DiscoveryError(message: "\(option) \(path) is this run's \(stream): the report would replace "
                                               + "what the run prints there, or mix with it; give the report a file of its own"))
                    return 1
                }
            }
            if inputs.contains(ReportFile.identity(of: path)) {
                reportError(DiscoveryError(message: "\(option) \(path) is a file this run reads: writing the report there "
                                           + "would destroy it; give the report another path"))
                return 1
            }
            // (A link is judged by what it points at: a report is written through one.)
            if path.hasSuffix(".lua") || ReportFile.linkTarget(of: path)?.hasSuffix(".lua") == true {
                reportError(DiscoveryError(message: "\(option) \(path) is a Lua file (a module, the project file?)"
                                           + (path.hasSuffix(".lua") ? "" : ", through a link") + ": a report "
                                           + "is XML or JSON; give it another path"))
                return 1
            }
        }
        if !list {
            // The previous run's reports go now: an interrupted run leaves none passing as its own.
            for path in [junit, coverageJSON].compactMap({ $0 }) { ReportFile(path: path).clear() }
        }
        if list { return listTests(withWorkers(makeRunner(files: files, seed: seed ?? (shuffle ? UInt64.random(in: 1...999_999) : nil)))) }
        // --repeat: the whole selection again and again, each run reported;
        // a shuffled run without --seed gets a new order each time.
        var failedRuns: [Int] = []
        for round in 1...repeatCount {
            if repeatCount > 1 {
                print("run \(round) of \(repeatCount)")                   // (--repeat reports in text only)
                fflush(nil)
            }
            let status = runOnce(files: files, seed: seed ?? (shuffle ? UInt64.random(in: 1...999_999) : nil))
            if status == 2 { return 1 }                                   // nothing could run: no use repeating
            if status != 0 {
                failedRuns.append(round)
                if failFast { break }
            }
        }
        if repeatCount > 1 {
            let ran = failFast && !failedRuns.isEmpty ? failedRuns.last ?? repeatCount : repeatCount
            let summary = failedRuns.isEmpty ? "every run passed"
                : "\(failedRuns.count) failed (run\(failedRuns.count == 1 ? "" : "s") \(failedRuns.map(String.init).joined(separator: ", ")))"
            print("\(ran) run\(ran == 1 ? "" : "s") of \(repeatCount): \(summary)"
                  + (ran < repeatCount ? ", stopped by --fail-fast" : ""))
            fflush(nil)
        }
        return failedRuns.isEmpty ? 0 : 1
    }

    /// One run of the selection: 0 all passed, 1 some failed (or the JUnit
    /// file could not be written), 2 nothing matched.
    private func runOnce(files: [String], seed shuffleSeed: UInt64?) -> Int32 {
        let runner = withWorkers(makeRunner(files: files, seed: shuffleSeed))
        let main: any TestReporter = switch reporter {
        case "tap": TAPReporter(durations: profile != nil)
        case "json": JSONReporter()
        default: TextReporter(colors: TestCommand.colorsWanted(color), durations: profile != nil)
        }
        var reporters = [main]
        if let profile, reporter == "text" { reporters.append(ProfileReporter(count: profile)) }
        let junitReporter = junit.map(JUnitReporter.init(path:))
        if let junitReporter { reporters.append(junitReporter) }
        let outcome = runner.run(reporter: ReporterGroup(reporters))
        fflush(nil)
        var belowMinimum = false
        if recordsCoverage {
            let report = CoverageReport(outcome.files.flatMap(\.coverage),
                                        unloaded: outcome.files.filter { $0.loadFailure != nil }.map(\.file),
                                        interruptedBy: outcome.summary.interruptedBy)
            if coverage || coverageMin != nil {
                switch reporter {
                case "json": print(report.jsonLine)
                case "tap": print(report.text(limit: 200).split(separator: "\n", omittingEmptySubsequences: false).map { "# " + $0 }.joined(separator: "\n"))
                default: print(report.text(limit: 200))
                }
            }
            if let coverageJSON {
                do {
                    try report.json.write(toFile: coverageJSON)
                } catch {
                    writeToStandardError("\(ProgramName.current): --coverage-json: cannot write "
                                         + "\(MessageText.oneLine(MessageText.bounded(coverageJSON, limit: 1024))): \(MessageText.printable("\(error)"))\n")
                    return 1
                }
            }
            fflush(nil)                                   // the report before the verdict, also in one stream (2>&1)
            if coverageMin != nil, let reason = report.unknownReason {
                writeToStandardError("\(ProgramName.current): registration coverage is unknown, so --coverage-min cannot be met: \(MessageText.printable(reason))\n")
                belowMinimum = true
            } else if let coverageMin, let percent = report.percent, percent < coverageMin {
                writeToStandardError("\(ProgramName.current): registration coverage \(report.percentText) (\(report.built) of \(report.entries.count)) "
                                     + "is below --coverage-min \(coverageMin == coverageMin.rounded() ? String(Int(coverageMin)) : String(coverageMin))%\n")
                belowMinimum = true
            }
            fflush(nil)
        }
        if let problem = junitReporter?.writeError {
            writeToStandardError("\(ProgramName.current): \(problem)\n")
            return 1
        }
        // Interrupted (SIGINT, SIGTERM, SIGHUP): what finished is reported; the
        // process ends as the signal would have (status 128 + signal).
        if outcome.summary.interruptedBy != nil {
            fflush(nil)
            fh_die_of_ending_signal()
        }
        let ran = outcome.summary.passed + outcome.summary.failed + outcome.summary.skipped
        if ran == 0 {
            writeToStandardError("\(ProgramName.current): no tests matched (\(files.count) spec file\(files.count == 1 ? "" : "s") searched)\n")
            return 2
        }
        return outcome.summary.failed > 0 || belowMinimum ? 1 : 0
    }

    /// The runner for `files` with these settings.
    private func makeRunner(files: [String], seed: UInt64?) -> TestRunner {
        var options = TestOptions()
        options.selection = TestSelection(texts: filters, patterns: filterPatterns, tags: tags, excludedTags: excludedTags)
        options.timeLimit = Limits.duration(timeout).map(TestCommand.seconds) ?? 5
        options.defaultConfiguration = config
        options.failFast = failFast
        options.shuffleSeed = seed
        options.jobs = jobs
        options.coverage = recordsCoverage
        var setup = HostSetup(pluginPaths: pluginPaths)
        setup.valueFiles = valueFiles
        setup.valueAssignments = valueAssignments
        setup.timeLimit = .milliseconds(Int64(min(max(options.timeLimit, 0.001), 1e9) * 1000))
        let plugins = FactoryHostCLI.plugins                 // Sendable: FactoryPlugin is
        let searchPath = setup.searchPath
        let pluginTimeLimit = setup.timeLimit ?? .seconds(5)        // a test's limit, as the values files get
        return TestRunner(files: files, options: options) { [setup] in
            let host = try FactoryHost(plugins: plugins)
            try setup.applyValues(to: host)
            // The Lua plugins' manifests and init.lua, together, get a test's
            // time: one that loops is reported as such, and one stuck where Lua
            // cannot stop it ends the worker a second later (reported as its
            // file's loading), not as a worker that stopped answering.
            host.lua.setDeadline(after: pluginTimeLimit)
            host.lua.hardStop = .exitProcess(grace: .seconds(1), prefix: "\(ProgramName.current): loading the Lua plugins: ",
                                             status: TestRunner.workerHardStopStatus)
            try host.loadLuaPlugins(searchPath: searchPath)
            host.lua.setDeadline(after: nil)
            return host
        }
    }

    /// `runner` with each file in a worker process (when this program's
    /// executable can be found), so a test stuck in C code past its limit
    /// ends its worker, not the run, and no spec code runs in the runner.
    private func withWorkers(_ runner: TestRunner) -> TestRunner {
        guard let executable = TestCommand.ownExecutable() else { return runner }
        var options = runner.options
        options.workerCommand = [executable, "test"] + workerArguments(seed: options.shuffleSeed)
        return TestRunner(files: runner.files, options: options, makeHost: runner.makeHost)
    }

    /// The options a worker needs to select, order and time tests as this run does.
    func workerArguments(seed: UInt64?) -> [String] {
        // `--name=value`: a value starting with "-" stays a value. An empty
        // value goes as a word of its own: `--name=` means "no value" to both readers.
        var arguments: [String] = []
        func add(_ name: String, _ value: String) { arguments += value.isEmpty ? [name, ""] : ["\(name)=\(value)"] }
        add("--timeout", timeout)
        for filter in filters { add("--filter", filter) }
        for pattern in filterPatterns { add("--filter-pattern", pattern) }
        for tag in tags { add("--tag", tag) }
        for tag in excludedTags { add("--exclude-tag", tag) }
        if failFast { arguments.append("--fail-fast") }
        if recordsCoverage { arguments.append("--coverage") }
        if let seed { add("--seed", String(seed)) }
        if let config { add("--config", config) }
        for path in pluginPaths { add("--plugin-path", path) }
        for file in valueFiles { add("--values", file) }
        for assignment in valueAssignments { add("--set", assignment) }
        return arguments
    }

    /// `--list`: each selected test's place and name, then the count.
    private func listTests(_ runner: TestRunner) -> Int32 {
        var count = 0
        var failed = false
        for entry in runner.list() {
            if let failure = entry.failure {
                // (Names, tags and paths are the spec's: escaped, each on its line.)
                print(MessageText.oneLine("\(entry.file): cannot be listed: \(failure.headline)"))
                failed = true
            }
            for test in entry.tests {
                count += 1
                var line = "\(test.location): \(test.shownName)"
                if !test.tags.isEmpty { line += " [\(test.shownTags.joined(separator: ", "))]" }
                if test.isPending { line += " (pending)" }
                print(MessageText.oneLine(line))
            }
        }
        print("\(count) test\(count == 1 ? "" : "s") in \(runner.files.count) file\(runner.files.count == 1 ? "" : "s")")
        return failed ? 1 : 0
    }

    /// The plain forms of `test` — options (with valid values) first, then
    /// the paths — read without the argument parser, as a worker's command
    /// line always is; nil for anything else (help, `--`, a repeated single
    /// option, a word after a path that starts with `-`, a value the
    /// parser would refuse), which the argument parser then reads and reports.
    static func plain(_ argv: [String]) -> TestSettings? {
        guard argv.count >= 2, argv[1] == "test" else { return nil }
        var settings = TestSettings()
        guard let i = PlainCommandLine.readOptions(argv, into: &settings, with: TestOption.self) else { return nil }
        let paths = Array(argv[i...])
        guard !paths.contains(where: { $0.hasPrefix("-") }), settings.problem == nil else { return nil }
        settings.paths = paths
        return settings
    }
}
