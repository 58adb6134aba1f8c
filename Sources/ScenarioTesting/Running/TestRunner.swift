import CLuaShim
import FactoryScripting
import FactoryhostSupport
import LuaBridge
import LuaInterpreter

/// Runs spec files: each in a fresh host (so configurations and globals of
/// one file never reach another), every test with a fresh container.
///
/// ```swift
/// let runner = TestRunner(files: try SpecDiscovery.files(in: ["Examples"]), options: TestOptions()) {
///     try FactoryHost(plugins: ExamplePlugins.all)
/// }
/// let outcome = runner.run(reporter: TextReporter(colors: false))
/// print(outcome.summary.line)        // "12 passed, 0 failed"
/// ```
public final class TestRunner: Sendable {
    /// Makes the host a spec file runs in (called on the worker's thread).
    public typealias HostFactory = @Sendable () throws -> FactoryHost

    /// The exit status a worker process ends with when a hard stop ends it
    /// (code Lua could not interrupt ran past its limit): a host factory that
    /// sets its own hard stop uses it, so the runner reports it as such.
    public static let workerHardStopStatus: Int32 = WorkerProcess.hardStopStatus

    /// The spec files, in the order they run (unless shuffled).
    public let files: [String]
    /// How they run.
    public let options: TestOptions
    /// Makes the host each spec file runs in.
    public let makeHost: HostFactory
    /// The workers running now (``LiveWorkers``): `--fail-fast` ends the others.
    let liveWorkers = LiveWorkers()

    /// A runner of `files` with `options`, each file in a host `makeHost` makes.
    public init(files: [String], options: TestOptions, makeHost: @escaping HostFactory) {
        self.files = files
        self.options = options
        self.makeHost = makeHost
    }

    /// What a run came to.
    public struct Outcome: Sendable {
        /// The counts.
        public var summary: TestSummary
        /// `--fail-fast` stopped it before every test ran.
        public var stoppedEarly: Bool
        /// Each file's results.
        public var files: [FileResult]
    }

    // MARK: Running

    /// Runs every selected test, telling `reporter` about each file and test
    /// in file order (also when files run in parallel).
    public func run(reporter: any TestReporter) -> Outcome {
        let order = orderedFiles()
        if options.workerCommand != nil {
            // Workers (and what their tests started) end with the runner: on
            // SIGINT, SIGTERM (a CI system cancelling the job) or SIGHUP, and
            // when the run is over.
            fh_end_tree_on_signals()
        }
        defer { if options.workerCommand != nil { fh_kill_descendants() } }
        reporter.runStarted(fileCount: order.count, seed: options.shuffleSeed)
        let stop = Protected(false)
        var results: [FileResult]
        if options.jobs <= 1 || order.count <= 1 {
            results = []
            for (position, file) in order.enumerated() where !stop.withLock({ $0 }) {
                reporter.fileStarted(file)
                let result = runFile(file, position: position, stop: stop) { reporter.testFinished($0) }
                reporter.fileFinished(result)
                results.append(result)
            }
        } else {
            results = runInParallel(order, stop: stop, reporter: reporter)
        }
        var summary = TestSummary()
        for result in results { summary.add(result) }
        if options.workerCommand != nil, let signal = Self.endingSignal() { summary.interruptedBy = signal }
        let stoppedEarly = stop.withLock { $0 }
        reporter.runFinished(summary, stoppedEarly: stoppedEarly)
        return Outcome(summary: summary, stoppedEarly: stoppedEarly, files: results)
    }

    /// Each runner thread's stack: big enough for deep Lua and Swift recursion.
    static let workerStackSize = 16 << 20

    private func runInParallel(_ order: [String], stop: Protected<Bool>, reporter: any TestReporter) -> [FileResult] {
        struct Progress {
            var next = 0
            var done: [Int: FileResult] = [:]
            var reported = 0
            var results: [FileResult] = []
        }
        let progress = Protected(Progress())
        let sendableReporter = UncheckedSendable(reporter)
        Threads.runAll(count: min(options.jobs, order.count), stackSize: Self.workerStackSize) { [self] _ in
            while true {
                let position: Int? = progress.withLock { progress in
                    guard progress.next < order.count, !stop.withLock({ $0 }) else { return nil }
                    defer { progress.next += 1 }
                    return progress.next
                }
                guard let position else { return }
                let result = runFile(order[position], position: position, stop: stop) { _ in }
                progress.withLock { progress in
                    progress.done[position] = result
                    // Report finished files in order, as soon as those before them are.
                    while let ready = progress.done.removeValue(forKey: progress.reported) {
                        let reporter = sendableReporter.value
                        reporter.fileStarted(ready.file)
                        for test in ready.results { reporter.testFinished(test) }
                        reporter.fileFinished(ready)
                        progress.results.append(ready)
                        progress.reported += 1
                    }
                }
            }
        }
        // Every file taken has finished, and so was reported, in order.
        return progress.withLock { $0.results }
    }

    /// One file: load it in a fresh host, select, run test by test.
    private func runFile(_ file: String, position: Int, stop: Protected<Bool>, onTest: (TestResult) -> Void) -> FileResult {
        let clock = ContinuousClock()
        let started = clock.now
        var result = options.workerCommand.map { runInWorkers(file, command: $0, position: position, stop: stop, onTest: onTest) }
            ?? loadAndRun(file, position: position, stop: stop, onTest: onTest)
        result.duration = SpecFileSession.seconds(clock.now - started)
        return result
    }

    private func loadAndRun(_ file: String, position: Int, stop: Protected<Bool>, onTest: (TestResult) -> Void) -> FileResult {
        var result = FileResult(file: file)
        let session: SpecFileSession
        var tests: [TestCase]
        do {
            (session, tests) = try open(file)
        } catch {
            result.loadFailure = error
            if options.failFast { stop.withLock { $0 = true } }
            return result
        }
        defer { session.host.lua.close() }
        if let seed = options.shuffleSeed {
            var generator = SeededGenerator(seed: seed &+ UInt64(position + 1) &* 0x2545_F491_4F6C_DD1D)
            tests.shuffle(using: &generator)
        }
        session.plan(tests)
        for test in tests {
            if options.failFast, stop.withLock({ $0 }) { break }
            let outcome = session.run(test, defaultConfiguration: options.defaultConfiguration, timeLimit: options.timeLimit)
            result.results.append(outcome)
            onTest(outcome)
            if outcome.failure != nil, options.failFast { stop.withLock { $0 = true } }
        }
        if let coverage = session.coverage {
            result.coverage = coverage.entries(of: session.host.registry, excluding: Set(session.overrides.bases.keys))
        }
        return result
    }

    /// One file in worker processes: a worker runs its tests in order and
    /// reports each; if it ends early (a hard stop, a crash), the test it
    /// was running fails and a new worker goes on after it.
    private func runInWorkers(_ file: String, command: [String], position: Int, stop: Protected<Bool>,
                              onTest: (TestResult) -> Void) -> FileResult {
        var result = FileResult(file: file)
        while true {
            let worker: WorkerProcess
            do {
                worker = try WorkerProcess(command: command, arguments: [
                    "--worker-file=\(file)", "--worker-position=\(position)", "--worker-skip=\(result.results.count)"])
            } catch {
                result.loadFailure = error
                return result
            }
            liveWorkers.add(worker)
            defer { liveWorkers.remove(worker) }
            // With --fail-fast, a failure here stops the run: the other workers end now, not when their tests do.
            func stopTheRun() {
                stop.withLock { $0 = true }
                liveWorkers.endAll(except: worker)
            }
            var running: Int?
            // The running test as its worker described it: the runner names a
            // test its worker died in without loading the spec itself (no spec
            // code ever runs in the runner).
            var runningTest: TestCase?
            // The hook of the running test that is running now, as the worker said (a hook stuck in C, or
            // killing its worker, is named: it was blamed on the test).
            var runningHook: (name: String, place: String)?
            var runningSince = ContinuousClock.now
            var finished = false
            var reported = Set(result.results.map(\.test.index))
            var broken: String?
            var printed: Int64?                        // the worker's output ends here at its latest report
            flushOutput()                              // our own report so far, before the worker's output
            var runningLimit = options.timeLimit
            // Past a test's limit its worker ends itself (a hard stop); one that
            // does not (stopped, wedged) is ended after this much silence.
            func patience() -> Double { runningLimit + Self.workerGrace }
            while broken == nil, !finished, let line = worker.nextLine(within: patience()) {
                switch WorkerProtocol.event(line) {
                case .start(let test, let limit)?:
                    runningLimit = min(max(limit, 0), 86_400)
                    result.output += worker.takeOutput(upTo: printed)      // printed outside any test
                    if running != nil || reported.contains(test.index) { broken = "a test started twice" }
                    running = test.index
                    runningTest = test
                    runningHook = nil
                    runningSince = ContinuousClock.now
                case .result(var test)?:
                    // Only the test the worker said it started, once.
                    guard running == test.test.index, reported.insert(test.test.index).inserted else {
                        broken = "a result for a test that was not running"
                        break
                    }
                    running = nil
                    runningHook = nil
                    runningLimit = options.timeLimit
                    test.output = worker.takeOutput(upTo: printed)
                    result.results.append(test)
                    onTest(test)
                    flushOutput()
                    if test.failure != nil, options.failFast { stopTheRun() }
                case .load(let failure)?:
                    result.output += worker.takeOutput(upTo: printed)
                    result.loadFailure = failure
                    if options.failFast { stopTheRun() }
                case .coverage(let entry)?: result.coverage.append(entry)
                case .listed?: broken = "a listing in a run"
                case .done?: finished = true
                case .mark(let offset)?: printed = offset
                case .hook(let name, let place)?:
                    if running == nil { broken = "a hook with no test running" }
                    runningHook = name.isEmpty ? nil : (name, place)
                case nil:
                    broken = worker.wasOverlong ? "a report line over \(WorkerProcess.longestLine >> 20) MiB, not the protocol's"
                        : "a report line that is not the protocol's"
                }
            }
            let ran = SpecFileSession.seconds(ContinuousClock.now - runningSince)
            let stalled = worker.timedOut
            if stalled { worker.end() }
            // After its report a worker only closes its state: its finalizers get the limit and the hard stop's second.
            let exitGrace = options.timeLimit + 1 + Self.workerGrace
            let endedByTheRun = liveWorkers.leave(worker)
            let (status, signal, overdue) = worker.wait(within: exitGrace)
            if Self.endingSignal() != nil {
                // A signal ends the run: its worker was killed, not failing. What finished is reported; nothing more starts.
                stop.withLock { $0 = true }
                return result
            }
            if endedByTheRun {
                // --fail-fast stopped the run elsewhere: the test it was running was stopped, not run.
                return result
            }
            let leftOver = worker.takeOutput()             // of the test it died in, or outside any
            if running == nil { result.output += leftOver }
            let how = stalled
                ? "stopped responding (nothing for \(SpecFileSession.format(seconds: patience())) s), so it was killed"
                : signal.map { "was killed by signal \($0)" } ?? "exited with status \(status)"
            if let broken {
                // Something wrote to the report pipe that the runner did not (a test?).
                // Named by the test that was running, if one was: it wrote there.
                let during = running != nil ? runningTest.map { " while '\($0.name)' (\($0.location)) ran" } ?? "" : ""
                let failure = TestFailure(kind: .error, message: "the worker process running this file sent \(broken)\(during) "
                                          + "(does a test write to file descriptor 3?); its results from here on are not trusted",
                                          location: running != nil ? runningTest?.location ?? file : file,
                                          phase: result.results.isEmpty && running == nil ? nil : TestFailure.runningTheTests)
                result.loadFailure = failure
                return result
            }
            if finished && status == 0 && signal == nil && running == nil { return result }
            if result.loadFailure != nil { return result }
            if finished && overdue {
                result.loadFailure = TestFailure(kind: .error, message: "after its report, the worker process did not exit within "
                                                 + "\(SpecFileSession.format(seconds: exitGrace)) s (was it stopped?), "
                                                 + "so it was killed", location: file, phase: TestFailure.closingTheFile)
                return result
            }
            if finished && signal == nil && status == WorkerProcess.closingExitStatus {
                result.loadFailure = TestFailure(kind: .error, message: "after every test ran, a finalizer (__gc) called os.exit as the "
                                                 + "file's Lua state closed: tests must not end the process",
                                                 location: file, phase: TestFailure.closingTheFile)
                return result
            }
            if finished && signal == nil && status == WorkerProcess.closingStopStatus {
                result.loadFailure = TestFailure(kind: .timeout, message: "after every test ran, a finalizer (__gc) ran past the time limit "
                                                 + "as the file's Lua state closed, and did not stop; the worker process was ended",
                                                 location: file, phase: TestFailure.closingTheFile)
                return result
            }
            guard running != nil, let test = runningTest else {
                if running != nil { result.output += leftOver }
                // After its report it was closing the file (its finalizers ran); before, between
                // tests or loading — named as such, not all as "loading the file".
                result.loadFailure = TestFailure(kind: .error, message: "the worker process running this file \(how) "
                                                 + (finished ? "after its report, as the file's Lua state closed" : "before reporting")
                                                 + (status == WorkerProcess.hardStopStatus && !finished
                                                    ? " (\(result.results.isEmpty ? "loading it" : "its run") ran past the time limit and did not stop)" : ""),
                                                 location: file,
                                                 phase: finished ? TestFailure.closingTheFile
                                                    : result.results.isEmpty ? nil : TestFailure.runningTheTests)
                return result
            }
            let limit = test.timeout ?? options.timeLimit
            var failure = !stalled && signal == nil && status == WorkerProcess.hardStopStatus
                ? TestFailure(kind: .timeout, message: "timed out after \(SpecFileSession.format(seconds: limit)) s and did not stop "
                              + "(it was in a C function, a finalizer or a blocking call): its worker process was ended, and the run went on",
                              location: test.location)
                : TestFailure(kind: .error, message: "the worker process running this test \(how); the run went on", location: test.location)
            if let runningHook {                           // in a hook of the test: named, at the hook's place
                failure.phase = runningHook.name
                failure.location = runningHook.place
            }
            let failed = TestResult(test: test, outcome: .failed(failure), duration: ran, output: leftOver)
            result.results.append(failed)
            onTest(failed)
            flushOutput()
            if options.failFast { stopTheRun(); return result }
        }
    }

    /// The signal ending the run (`"SIGTERM"`), once SIGINT, SIGTERM,
    /// SIGHUP or SIGQUIT came: its handler killed the workers, and the process dies of
    /// it once the tests that finished are reported (`TestSettings`).
    static func endingSignal() -> String? {
        switch fh_tree_is_ending() {
        case 0: return nil
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        case SIGQUIT: return "SIGQUIT"
        case let other: return "signal \(other)"
        }
    }

    /// Seconds a worker may stay silent past the running test's limit before
    /// it is ended (its own hard stop comes one second after the limit).
    static let workerGrace: Double = 10

    /// The test `index` of `file` as listed (for a worker that ended mid-test).
    /// The worker side of ``TestOptions/workerCommand``: runs `file` (at
    /// `position` in the run, for the shuffle) from its `skip`th selected
    /// test on, reporting each test on descriptor 3, and ends the worker
    /// process (status 0: failures are in the reports): the file's state
    /// closes with `LuaState.closeAndExit(status:)` — its finalizers run,
    /// its memory is left to the exit.
    public func runWorkerAndExit(file: String, position: Int, skip: Int) -> Never {
        fh_die_with_parent()                       // a runner gone (even by SIGKILL) takes its workers and what they started
        let out = WorkerReportWriter()
        let session: SpecFileSession
        var tests: [TestCase]
        do {
            (session, tests) = try open(file)
        } catch {
            out.write(WorkerProtocol.load(error))
            out.write(WorkerProtocol.done)
            ScriptRunner.exitWithoutFinalizers(0)
        }
        // Each hook's start and end, so a hook stuck in C or ending the worker is named by the runner.
        try? session.reportHooks { name, place in out.write(WorkerProtocol.hook(name, place: place)) }
        if let seed = options.shuffleSeed {
            var generator = SeededGenerator(seed: seed &+ UInt64(position + 1) &* 0x2545_F491_4F6C_DD1D)
            tests.shuffle(using: &generator)
        }
        session.plan(Array(tests.dropFirst(skip)))
        // Coverage: the file's registrations first, then what each test built
        // as it ends — a worker that dies later loses none of it.
        var universe: Set<RegistrationCoverage.Entry.ID> = []
        if let coverage = session.coverage {
            for entry in coverage.entries(of: session.host.registry) {
                universe.insert(entry.id)
                out.write(WorkerProtocol.coverage(entry))
            }
        }
        for test in tests.dropFirst(skip) {
            out.write(WorkerProtocol.start(test, limit: test.timeout ?? options.timeLimit))
            let outcome = session.run(test, defaultConfiguration: options.defaultConfiguration, timeLimit: options.timeLimit)
            if let coverage = session.coverage {
                for entry in coverage.takeNewlyBuilt(among: universe) { out.write(WorkerProtocol.coverage(entry)) }
            }
            out.write(WorkerProtocol.result(outcome))
            if outcome.failure != nil, options.failFast { break }
        }
        out.write(WorkerProtocol.done)
        Self.closeAndExit(session, file: file)
    }

    /// Ends a worker after its report: finalizers run as the state closes,
    /// under the time limit — one that overruns is the file's, after its
    /// tests, not a test's, not loading.
    private static func closeAndExit(_ session: SpecFileSession, file: String) -> Never {
        session.host.lua.hardStop = .exitProcess(grace: .seconds(1), prefix: "\(ProgramName.current): \(file): closing the file's Lua state: ",
                                                 status: WorkerProcess.closingStopStatus)
        // What the tests started ends with the worker: its process group is
        // ended whole by the runner, and the groups os.execute and io.popen
        // started children in (off a terminal) are ended here.
        fh_kill_descendants()
        // From here os.exit in a finalizer ends the worker with a status that says so: an error raised
        // in a finalizer as the state closes is only a warning to Lua, and the run passed.
        session.host.lua.exitProcessOnOSExit(status: WorkerProcess.closingExitStatus)
        session.host.lua.closeAndExit(status: 0)
    }

    /// The files in run order: as given, or shuffled by the seed.
    private func orderedFiles() -> [String] {
        guard let seed = options.shuffleSeed else { return files }
        var generator = SeededGenerator(seed: seed)
        return files.shuffled(using: &generator)
    }

    // MARK: Listing

    /// The selected tests of every file, without running any; files that
    /// fail to load are listed with their failure. With a worker command,
    /// each file is loaded in a worker process, as for a run: no spec code
    /// runs in the runner (a blocking call there ended the whole listing),
    /// and what a spec starts ends with the listing.
    public func list() -> [(file: String, tests: [TestCase], failure: TestFailure?)] {
        guard let command = options.workerCommand else {
            return files.map { file in
                do throws(TestFailure) {
                    let (session, tests) = try open(file)
                    session.host.lua.close()
                    return (file, tests, nil)
                } catch {
                    return (file, [], error)
                }
            }
        }
        fh_end_tree_on_signals()
        defer { fh_kill_descendants() }
        return files.map { file in
            do throws(TestFailure) {
                return (file, try listInWorker(file, command: command), nil)
            } catch {
                return (file, [], error)
            }
        }
    }

    /// The selected tests of `file`, as a worker process loaded it.
    private func listInWorker(_ file: String, command: [String]) throws(TestFailure) -> [TestCase] {
        let worker = try WorkerProcess(command: command, arguments: ["--worker-file=\(file)", "--list"])
        var tests: [TestCase] = [], failure: TestFailure?, finished = false, broken = false
        let patience = options.timeLimit + Self.workerGrace
        while !broken, !finished, let line = worker.nextLine(within: patience) {
            switch WorkerProtocol.event(line) {
            case .listed(let test)?: tests.append(test)
            case .load(let loadFailure)?: failure = loadFailure
            case .done?: finished = true
            case .mark?: break
            default: broken = true
            }
        }
        let stalled = worker.timedOut
        if stalled { worker.end() }
        let (status, signal, _) = worker.wait(within: options.timeLimit + 1 + Self.workerGrace)
        if Self.endingSignal() != nil { fh_die_of_ending_signal() }         // a listing is not worth finishing
        if let failure { throw failure }
        if broken {
            throw TestFailure(kind: .error, message: "the worker process listing this file sent a report line that is not "
                              + "the protocol's (does the file write to file descriptor 3?)", location: file)
        }
        guard finished else {
            let how = stalled ? "stopped responding (nothing for \(SpecFileSession.format(seconds: patience)) s), so it was killed"
                : signal.map { "was killed by signal \($0)" } ?? "exited with status \(status)"
            throw TestFailure(kind: .error, message: "the worker process listing this file \(how) before reporting"
                              + (status == WorkerProcess.hardStopStatus ? " (loading it ran past the time limit and did not stop)" : ""),
                              location: file)
        }
        return tests
    }

    /// The worker side of `--list` with a worker command: loads `file`,
    /// reports its selected tests on descriptor 3, and exits.
    public func listWorkerAndExit(file: String) -> Never {
        fh_die_with_parent()
        let out = WorkerReportWriter()
        do {
            let (session, tests) = try open(file)
            for test in tests { out.write(WorkerProtocol.listed(test)) }
            out.write(WorkerProtocol.done)
            Self.closeAndExit(session, file: file)
        } catch {
            out.write(WorkerProtocol.load(error))
            out.write(WorkerProtocol.done)
            ScriptRunner.exitWithoutFinalizers(0)
        }
    }

    /// `file` loaded in a fresh host (closed by the caller through
    /// `session.host`), with the tests the selection keeps.
    private func open(_ file: String) throws(TestFailure) -> (SpecFileSession, [TestCase]) {
        let host: FactoryHost
        do {
            host = try makeHost()
        } catch {
            throw TestFailure(kind: .error, message: "cannot start a host: \(error)", location: file)
        }
        host.defaultConfiguration = options.defaultConfiguration
        host.plainResolveUsesOnlyConfiguration = false       // a test without a config has no container
        do throws(TestFailure) {
            let session = try SpecFileSession(file: file, host: host, timeLimit: options.timeLimit, recordsCoverage: options.coverage)
            do {
                return (session, try session.select(options.selection))
            } catch {
                throw TestFailure(kind: .error, message: String(describing: error), location: file)
            }
        } catch {
            host.lua.close()
            throw error
        }
    }
}

/// The reporter, handed to the worker threads of `runInParallel`. `@unchecked Sendable`: they call it only
/// inside `progress.withLock`, and the calling thread uses it only before they start and after they are joined.
fileprivate struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
