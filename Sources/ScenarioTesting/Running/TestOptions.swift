import FactoryScripting
import FactoryhostSupport
import LuaBridge
import LuaInterpreter

/// How a run goes: which tests, how long each may take, in what order, on
/// how many workers.
public struct TestOptions: Sendable {
    /// Which tests run.
    public var selection = TestSelection()
    /// Seconds each test may take (its hooks included) unless it sets its own.
    public var timeLimit: Double = 5
    /// The configuration tests get a container of when their suite names none.
    public var defaultConfiguration: String?
    /// Stop after the first failure.
    public var failFast = false
    /// Shuffle files and tests with this seed (`nil`: declaration order).
    public var shuffleSeed: UInt64?
    /// Files run at once, each worker with hosts of its own.
    public var jobs = 1
    /// When set, each spec file runs in a worker process started with this
    /// command plus `--worker-file FILE --worker-position N --worker-skip K`
    /// (the command's own `test` options); the worker calls
    /// ``TestRunner/runWorkerAndExit(file:position:skip:)``. A test that ends its
    /// worker — stuck in C code past its limit, or crashing — fails, and a
    /// new worker runs the rest of the file. The run then owns the process's
    /// children: SIGINT, SIGTERM and SIGHUP end every descendant (workers, and
    /// what their tests started) before the process, and the run ends them
    /// when it is over — meant for a command-line runner, not an app.
    public var workerCommand: [String]?
    /// Record which registrations the tests build (`--coverage`): each
    /// file's ``FileResult/coverage``.
    public var coverage = false

    /// The defaults: every test, 5 s each, in declaration order, one file at a time, in this process.
    public init() {}
}
