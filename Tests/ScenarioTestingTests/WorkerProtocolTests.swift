import Testing
@testable import ScenarioTesting

/// The lines a test worker writes to its runner: each event reads back as
/// written, whatever a test's names and messages hold, and a line that is
/// not the protocol's reads as nothing (the runner then distrusts the worker).
@Suite("The worker protocol")
struct WorkerProtocolTests {
    static let awkward = "tab\there, newline\nthere, backslash \\ and \\t, \u{1B}[2J, ☃"

    static func test(_ name: String = awkward) -> TestCase {
        TestCase(index: 3, name: name, path: ["outer \t block", name], file: "a b_spec.lua", line: 12,
                 tags: ["fast", "with\ttab"], configuration: "app-tests", timeout: 2.5, isPending: false)
    }

    @Test func eventsReadBackAsWritten() throws {
        let test = Self.test()
        guard case .start(let started, let limit)? = WorkerProtocol.event(Substring(WorkerProtocol.start(test, limit: 2.5))) else {
            Issue.record("start did not read back"); return
        }
        #expect(started == test && limit == 2.5)
        guard case .listed(let listed)? = WorkerProtocol.event(Substring(WorkerProtocol.listed(test))) else {
            Issue.record("test did not read back"); return
        }
        #expect(listed == test)
        let failure = TestFailure(kind: .expectation, message: Self.awkward, location: "a b_spec.lua:13", expected: "1\n2",
                                  actual: "", traceback: nil, phase: "before_each")
        let result = TestResult(test: test, outcome: .failed(failure), duration: 0.25)
        guard case .result(let read)? = WorkerProtocol.event(Substring(WorkerProtocol.result(result))) else {
            Issue.record("result did not read back"); return
        }
        #expect(read.test == test && read.outcome == .failed(failure) && read.duration == 0.25)
        guard case .load(let loaded)? = WorkerProtocol.event(Substring(WorkerProtocol.load(failure))) else {
            Issue.record("load did not read back"); return
        }
        #expect(loaded == failure)
        guard case .mark(let offset)? = WorkerProtocol.event(Substring(WorkerProtocol.mark(1234))) else {
            Issue.record("mark did not read back"); return
        }
        #expect(offset == 1234)
        // One line each: nothing a test wrote starts another.
        for line in [WorkerProtocol.start(test, limit: 1), WorkerProtocol.listed(test), WorkerProtocol.result(result),
                     WorkerProtocol.load(failure)] {
            #expect(!line.contains("\n"), "\(line)")
        }
    }

    @Test(arguments: ["", "garbage", "done\textra", "mark\t-1", "mark\tx", "start", "result\t1", "load",
                      "test\tonly\ttwo", "start\tnot-a-number\tx", "coverage"])
    func aLineThatIsNotTheProtocolsReadsAsNothing(_ line: String) {
        var isNothing = false
        if case .none = WorkerProtocol.event(Substring(line)) { isNothing = true }
        #expect(isNothing, "\(line)")
    }

    @Test func escapingRoundTrips() {
        for text in [Self.awkward, "", "\\", "\\\\t", "\t\t", "\n", "+", "-"] {
            #expect(WorkerProtocol.unescape(Substring(WorkerProtocol.escape(text))) == text, "\(text.debugDescription)")
        }
    }
}
