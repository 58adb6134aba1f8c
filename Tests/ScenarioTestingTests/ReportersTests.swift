import Foundation
import FactoryhostSupport
import Testing
@testable import ScenarioTesting

/// What the reporters write from a spec's names, paths and reasons: no
/// control character raw, and each line one line — a TAP consumer reads
/// `ok`/`not ok` lines, and a forged one would turn a run green.
@Suite("Reporters write what tests named, escaped")
struct ReportersTests {
    static let hostile = "x\u{1B}]0;PWN\u{07}\nok 99 - forged"

    final class Lines: @unchecked Sendable {          // written from one thread in these tests
        var all: [String] = []
    }

    @Test func tapKeepsEveryNameOnItsLine() {
        let lines = Lines()
        let reporter = TAPReporter { lines.all.append($0) }
        let test = TestCase(index: 1, name: Self.hostile, path: [Self.hostile], file: "a\u{1B}[2J_spec.lua", line: 1,
                            tags: [], configuration: nil, timeout: nil, isPending: true)
        reporter.runStarted(fileCount: 1, seed: nil)
        reporter.fileStarted(test.file)
        reporter.testFinished(TestResult(test: test, outcome: .skipped(Self.hostile), duration: 0))
        reporter.testFinished(TestResult(test: test, outcome: .failed(TestFailure(kind: .error, message: Self.hostile)), duration: 0))
        var file = FileResult(file: test.file)
        file.output = "printed\n"
        reporter.fileFinished(file)
        let written = lines.all.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false) }
        #expect(!written.contains { $0.hasPrefix("ok 99") }, "\(written)")
        #expect(!written.contains { line in line.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 } }, "\(written)")
        #expect(written.contains("# a\\27[2J_spec.lua"), "\(written)")
    }
}

/// `--profile`'s list of the slowest tests escapes them as the rest does.
@Suite("The profile list")
struct ProfileListTests {
    @Test func namesAreEscapedAndOnOneLine() {
        let lines = ReportersTests.Lines()
        let reporter = ProfileReporter(count: 3) { lines.all.append($0) }
        let test = TestCase(index: 1, name: ReportersTests.hostile, path: [], file: "p\u{1B}_spec.lua", line: 1,
                            tags: [], configuration: nil, timeout: nil, isPending: false)
        reporter.testFinished(TestResult(test: test, outcome: .passed, duration: 0.01))
        reporter.runFinished(TestSummary(), stoppedEarly: false)
        let written = lines.all.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false) }
        #expect(!written.contains { $0.hasPrefix("ok 99") } && !written.contains { $0.unicodeScalars.contains { $0.value == 0x1B } },
                "\(written)")
    }
}

/// Where a failure is placed: the user's frames, never the test library's.
@Suite("Failure places and frames")
struct FailurePlaceTests {
    static let traceback = """
        stack traceback:
        \t[factoryhost test]:338: in function <[factoryhost test]:337>
        \t[C]: in function 'table.sort'
        \t[factoryhost test]:377: in upvalue 'difference'
        \t[factoryhost test]:501: in method 'to_equal'
        \tslow_spec.lua:7: in function <slow_spec.lua:2>
        \t[C]: in function 'xpcall'
        \t[factoryhost test]:1015: in function <[factoryhost test]:957>
        """

    @Test func aStopInsideTheLibraryIsPlacedAtTheUsersLine() {
        #expect(SpecFileSession.userLocation("[factoryhost test]:338", traceback: Self.traceback) == "slow_spec.lua:7")
        #expect(SpecFileSession.userLocation("helper.lua:3", traceback: Self.traceback) == "helper.lua:3")
        #expect(SpecFileSession.userLocation(nil, traceback: Self.traceback) == "slow_spec.lua:7")
        #expect(SpecFileSession.userLocation("[factoryhost test]:1", traceback: nil) == "[factoryhost test]:1")
    }

    @Test func theLibrarysFramesAndTheCFunctionsItCalledAreLeftOut() {
        #expect(SpecFileSession.userFrames(Self.traceback) == "stack traceback:\n\tslow_spec.lua:7: in function <slow_spec.lua:2>")
        // A stop in the test's own body: its one frame only repeats the place.
        #expect(SpecFileSession.deeperFrames(Self.traceback) == nil)
        let deeper = Self.traceback.replacingOccurrences(of: "\tslow_spec.lua:7:", with: "\tfactory.lua:4: in upvalue 'build'\n\tslow_spec.lua:7:")
        #expect(SpecFileSession.deeperFrames(deeper)?.contains("factory.lua:4") == true)
    }
}
