import FactoryhostSupport

/// Hears about a run as it goes, in file order: text on a terminal, TAP,
/// JUnit XML.
///
/// ```swift
/// final class Dots: TestReporter {
///     func testFinished(_ result: TestResult) { print(result.failure == nil ? "." : "F", terminator: "") }
/// }
/// ```
public protocol TestReporter: AnyObject {
    /// The run starts: `fileCount` files, shuffled with `seed` (nil: in order).
    func runStarted(fileCount: Int, seed: UInt64?)
    /// A file starts loading.
    func fileStarted(_ file: String)
    /// A test finished (passed, failed or skipped).
    func testFinished(_ result: TestResult)
    /// A file finished: all its results, or why it could not load.
    func fileFinished(_ result: FileResult)
    /// The run finished; `stoppedEarly` if `--fail-fast` stopped it.
    func runFinished(_ summary: TestSummary, stoppedEarly: Bool)
}

extension TestReporter {
    /// Does nothing.
    public func runStarted(fileCount: Int, seed: UInt64?) {}
    /// Does nothing.
    public func fileStarted(_ file: String) {}
    /// Does nothing.
    public func testFinished(_ result: TestResult) {}
    /// Does nothing.
    public func fileFinished(_ result: FileResult) {}
    /// Does nothing.
    public func runFinished(_ summary: TestSummary, stoppedEarly: Bool) {}
}

/// Several reporters hearing the same run (text on standard output and a
/// JUnit file, say).
public final class ReporterGroup: TestReporter {
    /// The reporters, told in this order.
    public let reporters: [any TestReporter]
    /// A group telling each of `reporters`.
    public init(_ reporters: [any TestReporter]) { self.reporters = reporters }

    /// Tells each reporter.
    public func runStarted(fileCount: Int, seed: UInt64?) { reporters.forEach { $0.runStarted(fileCount: fileCount, seed: seed) } }
    /// Tells each reporter.
    public func fileStarted(_ file: String) { reporters.forEach { $0.fileStarted(file) } }
    /// Tells each reporter.
    public func testFinished(_ result: TestResult) { reporters.forEach { $0.testFinished(result) } }
    /// Tells each reporter.
    public func fileFinished(_ result: FileResult) { reporters.forEach { $0.fileFinished(result) } }
    /// Tells each reporter.
    public func runFinished(_ summary: TestSummary, stoppedEarly: Bool) {
        reporters.forEach { $0.runFinished(summary, stoppedEarly: stoppedEarly) }
    }
}

/// Writes `line` and a newline to standard output and flushes it: reports
/// stream line by line even into a pipe (a CI log shows each test as it
/// finishes, not everything at the end).
public func writeLineToStandardOutput(_ line: String) {
    print(line)
    fflush(nil)
}

extension String {
    /// The text's lines, split at every line break — `\n`, `\r\n` and a
    /// lone `\r` — so that no report line holds one (in Swift `"\r\n"` is a
    /// single Character, which a split on `"\n"` would miss).
    func reportLines() -> [String] {
        var lines: [String.UnicodeScalarView] = [String.UnicodeScalarView()]
        var afterCarriageReturn = false
        for scalar in unicodeScalars {
            switch scalar {
            case "\r":
                lines.append(String.UnicodeScalarView())
                afterCarriageReturn = true
                continue
            case "\n":
                if !afterCarriageReturn { lines.append(String.UnicodeScalarView()) }
            default:
                lines[lines.count - 1].append(scalar)
            }
            afterCarriageReturn = false
        }
        return lines.map(String.init)
    }

    /// The text on one line: each line break becomes a space.
    func oneLine() -> String { reportLines().joined(separator: " ") }
}
