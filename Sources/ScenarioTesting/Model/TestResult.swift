import FactoryhostSupport
import FactoryScripting
/// Why a test failed.
public struct TestFailure: Error, Sendable, Equatable {
    /// What kind of failure it was.
    public enum Kind: String, Sendable {
        /// An `expect(…)` that did not hold.
        case expectation
        /// An error (`error(…)`, `assert(…)`, a bad call) in the test or a hook.
        case error
        /// The test ran over its time limit.
        case timeout
    }

    /// An expectation, an error or a timeout.
    public var kind: Kind
    /// What went wrong, without the location.
    public var message: String
    /// Where: the failing expectation's or error's `file:line`, else the test's.
    public var location: String?
    /// The expected and actual values, pretty-printed, for expectations.
    public var expected: String?
    /// The actual value, pretty-printed, for expectations.
    public var actual: String?
    /// Lua's traceback for errors (the test's own frames).
    public var traceback: String?
    /// `before_each` or `after_each` when a hook failed.
    public var phase: String?

    /// A failure of `kind` saying `message` at `location` — each text at
    /// most about 4 KB (its start and its end), whatever a test raised.
    public init(kind: Kind, message: String, location: String? = nil, expected: String? = nil,
                actual: String? = nil, traceback: String? = nil, phase: String? = nil) {
        self.kind = kind
        self.message = MessageText.bounded(message)
        self.location = location.map { MessageText.bounded($0) }
        self.expected = expected.map { MessageText.bounded($0) }
        self.actual = actual.map { MessageText.bounded($0) }
        self.traceback = traceback.map { MessageText.bounded($0) }
        self.phase = phase.map { MessageText.bounded($0) }
    }

    /// The phase of a file's failure after its tests ran: closing its Lua
    /// state (finalizers) — not loading it.
    public static let closingTheFile = "closing the file"

    /// The phase of a file's failure while its tests ran, that no one test
    /// owns: its worker's report broke off (a test wrote to the report pipe).
    public static let runningTheTests = "the run of its tests"

    /// What a file-level failure happened in: `loading the file`, ``runningTheTests`` or ``closingTheFile``.
    public var fileStage: String {
        phase == Self.closingTheFile || phase == Self.runningTheTests ? phase ?? "" : "loading the file"
    }

    /// `location: message` (with the hook named, if a hook failed).
    public var headline: String {
        let text = phase.map { "in \($0): \(message)" } ?? message
        return location.map { "\($0): \(text)" } ?? text
    }
}

/// What became of one test.
public struct TestResult: Sendable {
    /// Passed, failed (with why), or skipped (with the reason given).
    public enum Outcome: Sendable, Equatable {
        /// Every expectation held.
        case passed
        /// It failed, and why.
        case failed(TestFailure)
        /// It did not run, and why (`pending`).
        case skipped(String)
    }

    /// The test.
    public var test: TestCase
    /// What became of it.
    public var outcome: Outcome
    /// Seconds the test (with its hooks) took.
    public var duration: Double
    /// What the test printed (captured when it ran in a worker process).
    public var output = ""

    /// The result of `test`.
    public init(test: TestCase, outcome: Outcome, duration: Double, output: String = "") {
        self.test = test
        self.outcome = outcome
        self.duration = duration
        self.output = output
    }

    /// Why it failed, if it did.
    public var failure: TestFailure? {
        if case .failed(let failure) = outcome { return failure }
        return nil
    }
}

/// One spec file's results, in the order its tests ran.
public struct FileResult: Sendable {
    /// The spec file's path.
    public var file: String
    /// Each test's result.
    public var results: [TestResult] = []
    /// The file could not be loaded (a syntax error, an error at its top
    /// level or in a describe body, a bad configuration): it counts as one
    /// failure.
    public var loadFailure: TestFailure?
    /// Seconds the file took, loading included.
    public var duration: Double = 0
    /// What the file printed outside its tests (its top level, a finalizer).
    public var output = ""
    /// With `--coverage`: every registration of the file's configurations,
    /// and whether its tests built it.
    public var coverage: [RegistrationCoverage.Entry] = []

    /// No results yet for `file`.
    public init(file: String) { self.file = file }
}

/// The counts a run ends with.
public struct TestSummary: Sendable, Equatable {
    /// Tests that passed.
    public var passed = 0
    /// Tests that failed, and files that could not be loaded.
    public var failed = 0
    /// Tests skipped.
    public var skipped = 0
    /// The signal that interrupted the run (`"SIGTERM"`), if one did: the
    /// counts are of the tests that finished before it.
    public var interruptedBy: String?

    /// No tests counted yet.
    public init() {}

    mutating func add(_ file: FileResult) {
        if file.loadFailure != nil { failed += 1 }
        for result in file.results {
            switch result.outcome {
            case .passed: passed += 1
            case .failed: failed += 1
            case .skipped: skipped += 1
            }
        }
    }

    /// `N passed, N failed` then `, N skipped` if any were.
    public var line: String {
        "\(passed) passed, \(failed) failed" + (skipped > 0 ? ", \(skipped) skipped" : "")
    }
}
