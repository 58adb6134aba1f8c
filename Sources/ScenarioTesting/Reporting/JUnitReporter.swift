import FactoryhostSupport

/// JUnit XML for CI, written to a file when the run ends: one
/// `<testsuite>` per spec file, one `<testcase>` per test, `<failure>` for
/// unmet expectations, `<error>` for errors and timeouts, `<skipped>` for
/// pending tests. A file that fails to load is a test case named
/// `(loading the file)` with its error.
///
/// ```swift
/// let junit = JUnitReporter(path: "reports/junit.xml")
/// _ = runner.run(reporter: ReporterGroup([TextReporter(colors: false), junit]))
/// if let problem = junit.writeError { print(problem) }
/// ```
public final class JUnitReporter: TestReporter {
    /// Where the XML is written.
    public let path: String
    /// Why the file could not be written, if it could not.
    public private(set) var writeError: String?
    private var files: [FileResult] = []

    /// A reporter writing to `path` when the run ends.
    public init(path: String) { self.path = path }

    /// Keeps the file's results.
    public func fileFinished(_ result: FileResult) { files.append(result) }

    /// Writes the XML; a failure is in ``writeError``.
    public func runFinished(_ summary: TestSummary, stoppedEarly: Bool) {
        // Whole or not at all: an interrupted run leaves no half file.
        do {
            try ReportFile(path: path).write(Array(Self.document(files, interruptedBy: summary.interruptedBy).utf8))
        } catch let failure as ReportFile.Failure {
            writeError = "cannot write the JUnit report to \(MessageText.oneLine(MessageText.bounded(path, limit: 1024))): \(failure.reason)"
        } catch {
            writeError = "cannot write the JUnit report to \(MessageText.oneLine(MessageText.bounded(path, limit: 1024))): \(error)"
        }
    }

    /// The XML for `files`.
    public static func document(_ files: [FileResult], interruptedBy: String? = nil) -> String {
        var totals = (tests: 0, failures: 0, errors: 0, skipped: 0, time: 0.0)
        var suites: [String] = []
        for file in files {
            var counts = (tests: 0, failures: 0, errors: 0, skipped: 0)
            var cases: [String] = []
            for result in file.results {
                counts.tests += 1
                let test = result.test
                let className = MessageText.bounded(([suiteName(file.file)] + test.path.dropLast()).joined(separator: "."), limit: 2_048)
                var element = "    <testcase classname=\"\(escape(className))\" name=\"\(escape(test.path.last ?? test.name))\" "
                    + "file=\"\(escape(test.file))\" line=\"\(test.line)\" time=\"\(seconds(result.duration))\""
                let output = systemOut(result.output)
                switch result.outcome {
                case .passed:
                    element += output.isEmpty ? "/>" : ">\n" + output + "\n    </testcase>"
                case .skipped(let reason):
                    counts.skipped += 1
                    element += ">\n      <skipped message=\"\(escape(reason))\"/>\n    </testcase>"
                case .failed(let failure):
                    if failure.kind == .expectation { counts.failures += 1 } else { counts.errors += 1 }
                    element += ">\n" + failureElement(failure) + (output.isEmpty ? "" : "\n" + output) + "\n    </testcase>"
                }
                cases.append(element)
            }
            if let failure = file.loadFailure {
                counts.tests += 1
                counts.errors += 1
                cases.append("    <testcase classname=\"\(escape(suiteName(file.file)))\" name=\"(\(failure.fileStage))\" "
                             + "file=\"\(escape(file.file))\" time=\"\(seconds(file.duration))\">\n"
                             + failureElement(failure) + "\n    </testcase>")
            }
            if !file.output.isEmpty { cases.append("  " + systemOut(file.output)) }
            totals.tests += counts.tests
            totals.failures += counts.failures
            totals.errors += counts.errors
            totals.skipped += counts.skipped
            totals.time += file.duration
            suites.append("  <testsuite name=\"\(escape(file.file))\" tests=\"\(counts.tests)\" failures=\"\(counts.failures)\" "
                          + "errors=\"\(counts.errors)\" skipped=\"\(counts.skipped)\" time=\"\(seconds(file.duration))\">\n"
                          + cases.map { $0 + "\n" }.joined() + "  </testsuite>")
        }
        // A run cancelled by a signal is an error of its own: without it the file read as a pass
        // (the tests that never ran are simply not there).
        if let interruptedBy {
            totals.tests += 1
            totals.errors += 1
            let message = "the run was interrupted by \(interruptedBy) before every test ran"
            suites.append("  <testsuite name=\"(interrupted)\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0.000\">\n"
                          + "    <testcase classname=\"(interrupted)\" name=\"\(escape(interruptedBy))\" time=\"0.000\">\n"
                          + "      <error message=\"\(escape(message))\" type=\"interrupted\">\(escape(message))</error>\n"
                          + "    </testcase>\n  </testsuite>")
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"\(TextEscaping.xml.escaped(ProgramName.current))\" tests=\"\(totals.tests)\" failures=\"\(totals.failures)\" "
            + "errors=\"\(totals.errors)\" skipped=\"\(totals.skipped)\" time=\"\(seconds(totals.time))\">\n"
            + suites.map { $0 + "\n" }.joined() + "</testsuites>\n"
    }

    /// What a test printed, as `<system-out>` (empty if nothing).
    private static func systemOut(_ output: String) -> String {
        output.isEmpty ? "" : "      <system-out>\(escape(output, newlines: false))</system-out>"
    }

    private static func failureElement(_ failure: TestFailure) -> String {
        let tag = failure.kind == .expectation ? "failure" : "error"
        var body = TextReporter.detail(failure).joined(separator: "\n")
        if body.isEmpty { body = failure.message }
        return "      <\(tag) message=\"\(escape(failure.headline))\" type=\"\(failure.kind.rawValue)\">\(escape(body))</\(tag)>"
    }

    /// `dir/cache_spec.lua` → `cache_spec`.
    private static func suiteName(_ file: String) -> String {
        var name = file.split(separator: "/").last.map(String.init) ?? file
        if name.hasSuffix(".lua") { name.removeLast(4) }
        return name
    }

    private static func seconds(_ value: Double) -> String {
        let millis = Int((value * 1000).rounded())
        let fraction = String(millis % 1000)
        return "\(millis / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// Text as XML character data or an attribute value; characters XML 1.0
    /// cannot hold (most control characters) become U+FFFD.
    static func escape(_ text: String, newlines: Bool = true) -> String {
        (newlines ? TextEscaping.xml : TextEscaping.xmlText).escaped(text)
    }
}
