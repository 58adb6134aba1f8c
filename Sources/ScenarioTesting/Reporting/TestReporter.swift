#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Hears about a run as it goes, in file order: text on a terminal, TAP,
/// JUnit XML.
///
/// ```swift
/// final class Dots: TestReporter {
///     func testFinished(_ result: TestResult) { print(result.failure == nil ? "." : "F", terminator: "") }
/// }
/// ```
public protocol TestReporter: AnyObject {
    func runStarted(fileCount: Int, seed: UInt64?)
    func fileStarted(_ file: String)
    func testFinished(_ result: TestResult)
    func fileFinished(_ result: FileResult)
    func runFinished(_ summary: TestSummary, stoppedEarly: Bool)
}

extension TestReporter {
    public func runStarted(fileCount: Int, seed: UInt64?) {}
    public func fileStarted(_ file: String) {}
    public func testFinished(_ result: TestResult) {}
    public func fileFinished(_ result: FileResult) {}
    public func runFinished(_ summary: TestSummary, stoppedEarly: Bool) {}
}

/// Several reporters hearing the same run (text on standard output and a
/// JUnit file, say).
public final class ReporterGroup: TestReporter {
    public let reporters: [any TestReporter]
    public init(_ reporters: [any TestReporter]) { self.reporters = reporters }

    public func runStarted(fileCount: Int, seed: UInt64?) { reporters.forEach { $0.runStarted(fileCount: fileCount, seed: seed) } }
    public func fileStarted(_ file: String) { reporters.forEach { $0.fileStarted(file) } }
    public func testFinished(_ result: TestResult) { reporters.forEach { $0.testFinished(result) } }
    public func fileFinished(_ result: FileResult) { reporters.forEach { $0.fileFinished(result) } }
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
