import FactoryhostSupport
import FactoryRegistry

/// `--reporter json`: JSON Lines on standard output — one object per test
/// as it finishes, one per file that failed to load, then the summary —
/// for tools that read a run as it goes.
///
/// ```text
/// {"type": "test", "name": "Cache > starts empty", "path": ["Cache", "starts empty"], "file": "cache_spec.lua", "line": 4,
///  "status": "passed", "duration": 0.0012, "output": ""}
/// {"type": "summary", "passed": 1, "failed": 0, "skipped": 0, "stoppedEarly": false}
/// ```
public final class JSONReporter: TestReporter {
    private let write: (String) -> Void

    /// `write` gets every line (by default standard output, flushed line by line).
    public init(write: @escaping (String) -> Void = writeLineToStandardOutput) { self.write = write }

    /// Writes `{"type": "run", "files": N, "seed": N|null}`.
    public func runStarted(fileCount: Int, seed: UInt64?) {
        write("{\"type\": \"run\", \"files\": \(fileCount), \"seed\": \(seed.map(String.init) ?? "null")}")
    }

    /// Writes the test's object: name, path, file, line, tags, status, failure or reason, duration, output.
    public func testFinished(_ result: TestResult) {
        let test = result.test
        var fields = ["\"type\": \"test\"", "\"name\": \(jsonString(test.shownName))",
                      "\"path\": [\(test.shownPath.map(jsonString).joined(separator: ", "))]",
                      "\"file\": \(jsonString(test.file))", "\"line\": \(test.line)",
                      "\"tags\": [\(test.shownTags.map(jsonString).joined(separator: ", "))]"]
        switch result.outcome {
        case .passed: fields.append("\"status\": \"passed\"")
        case .skipped(let reason): fields += ["\"status\": \"skipped\"", "\"reason\": \(jsonString(reason))"]
        case .failed(let failure): fields += ["\"status\": \"failed\"", "\"failure\": \(Self.object(failure))"]
        }
        fields += ["\"duration\": \(Self.number(result.duration))", "\"output\": \(jsonString(result.output))"]
        write("{" + fields.joined(separator: ", ") + "}")
    }

    /// Writes a `file` object if the file could not load.
    public func fileFinished(_ result: FileResult) {
        guard let failure = result.loadFailure else { return }
        write("{\"type\": \"file\", \"file\": \(jsonString(result.file)), \"status\": \"failed\", "
              + "\"failure\": \(Self.object(failure)), \"duration\": \(Self.number(result.duration)), \"output\": \(jsonString(result.output))}")
    }

    /// Writes the summary object.
    public func runFinished(_ summary: TestSummary, stoppedEarly: Bool) {
        write("{\"type\": \"summary\", \"passed\": \(summary.passed), \"failed\": \(summary.failed), "
              + "\"skipped\": \(summary.skipped), \"stoppedEarly\": \(stoppedEarly)"
              + (summary.interruptedBy.map { ", \"interruptedBy\": \"\($0)\"" } ?? "") + "}")
    }

    private static func object(_ failure: TestFailure) -> String {
        func optional(_ text: String?) -> String { text.map(jsonString) ?? "null" }
        return "{\"kind\": \(jsonString(failure.kind.rawValue)), \"message\": \(jsonString(failure.message)), "
            + "\"location\": \(optional(failure.location)), \"phase\": \(optional(failure.phase)), "
            + "\"expected\": \(optional(failure.expected)), \"actual\": \(optional(failure.actual)), "
            + "\"traceback\": \(optional(failure.traceback))}"
    }

    /// Seconds, finite (JSON has no infinity).
    private static func number(_ seconds: Double) -> String { seconds.isFinite ? String(seconds) : "null" }
}

/// `--profile`: after the run, the slowest tests with their durations.
public final class ProfileReporter: TestReporter {
    private let count: Int
    private let write: (String) -> Void
    private var results: [TestResult] = []

    /// Lists the `count` slowest tests when the run finishes.
    public init(count: Int, write: @escaping (String) -> Void = writeLineToStandardOutput) {
        self.count = count
        self.write = write
    }

    /// Keeps the result (skipped tests are not timed).
    public func testFinished(_ result: TestResult) {
        if case .skipped = result.outcome { return }
        results.append(result)
    }

    /// Writes the slowest tests, with their share of the total.
    public func runFinished(_ summary: TestSummary, stoppedEarly: Bool) {
        let slowest = results.sorted { $0.duration > $1.duration }.prefix(count)
        guard !slowest.isEmpty else { return }
        let total = results.reduce(0) { $0 + $1.duration }
        write("\nslowest \(slowest.count) of \(results.count) tests (\(Self.time(total)) in tests):")
        for result in slowest {
            let time = Self.time(result.duration)
            write("  " + time + String(repeating: " ", count: max(1, 10 - time.count))
                  + MessageText.oneLine("\(result.test.location)  \(result.test.shownName)"))      // a spec's names: escaped, one line
        }
    }

    /// `0.4 ms`, `12 ms`, `1.25 s`.
    static func time(_ seconds: Double) -> String {
        if seconds >= 1 { return String(format2(seconds)) + " s" }
        let ms = seconds * 1000
        return (ms < 10 ? String(Double(Int((ms * 10).rounded())) / 10) : String(Int(ms.rounded()))) + " ms"
    }

    private static func format2(_ value: Double) -> String { String(Double(Int((value * 100).rounded())) / 100) }
}
