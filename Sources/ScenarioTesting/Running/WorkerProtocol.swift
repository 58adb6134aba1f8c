/// What a worker process tells the runner about one spec file, a line per
/// event on its report pipe:
///
///     start <TAB> index                      a test began
///     result <TAB> test… <TAB> outcome…      a test ended
///     load <TAB> failure…                    the file could not be loaded
///     done                                   every selected test ran
///
/// Fields are escaped (`\\`, `\t`, `\n`), absent ones are `-`, present
/// optional ones start with `+`, lists are joined with U+001F.
enum WorkerProtocol {
    static let separator: Character = "\u{1F}"

    // MARK: Writing

    static func start(_ test: TestCase) -> String { "start\t\(test.index)" }

    static func result(_ result: TestResult) -> String {
        var line = ["result"] + fields(of: result.test) + [String(result.duration)]
        switch result.outcome {
        case .passed: line += ["passed"]
        case .skipped(let reason): line += ["skipped", escape(reason)]
        case .failed(let failure): line += ["failed"] + fields(of: failure)
        }
        return line.joined(separator: "\t")
    }

    static func load(_ failure: TestFailure) -> String { (["load"] + fields(of: failure)).joined(separator: "\t") }

    static let done = "done"

    private static func fields(of test: TestCase) -> [String] {
        [String(test.index), escape(test.name), escape(test.path.joined(separator: String(separator))), escape(test.file),
         String(test.line), escape(test.tags.joined(separator: String(separator))), optional(test.configuration),
         optional(test.timeout.map { String($0) }), test.isPending ? "1" : "0"]
    }

    private static func fields(of failure: TestFailure) -> [String] {
        [failure.kind.rawValue, escape(failure.message), optional(failure.location), optional(failure.expected),
         optional(failure.actual), optional(failure.traceback), optional(failure.phase)]
    }

    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out.append(character)
            }
        }
        return out
    }

    private static func optional(_ text: String?) -> String { text.map { "+" + escape($0) } ?? "-" }

    // MARK: Reading

    enum Event {
        case start(index: Int)
        case result(TestResult)
        case load(TestFailure)
        case done
    }

    static func event(_ line: Substring) -> Event? {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(unescape)
        switch fields.first {
        case "start": return fields.count == 2 ? Int(fields[1]).map { .start(index: $0) } : nil
        case "done": return .done
        case "load": return failure(fields.dropFirst()).map { .load($0) }
        case "result":
            guard fields.count >= 12, let test = testCase(fields[1...9]), let duration = Double(fields[10]) else { return nil }
            switch fields[11] {
            case "passed": return .result(TestResult(test: test, outcome: .passed, duration: duration))
            case "skipped" where fields.count == 13:
                return .result(TestResult(test: test, outcome: .skipped(fields[12]), duration: duration))
            case "failed":
                return failure(fields.dropFirst(12)).map { .result(TestResult(test: test, outcome: .failed($0), duration: duration)) }
            default: return nil
            }
        default: return nil
        }
    }

    private static func testCase(_ f: ArraySlice<String>) -> TestCase? {
        let f = Array(f)
        guard f.count == 9, let index = Int(f[0]), let line = Int(f[4]) else { return nil }
        func list(_ text: String) -> [String] { text.isEmpty ? [] : text.split(separator: separator, omittingEmptySubsequences: false).map(String.init) }
        return TestCase(index: index, name: f[1], path: list(f[2]), file: f[3], line: line, tags: list(f[5]),
                        configuration: read(f[6]), timeout: read(f[7]).flatMap(Double.init), isPending: f[8] == "1")
    }

    private static func failure(_ f: ArraySlice<String>) -> TestFailure? {
        let f = Array(f)
        guard f.count == 7, let kind = TestFailure.Kind(rawValue: f[0]) else { return nil }
        return TestFailure(kind: kind, message: f[1], location: read(f[2]), expected: read(f[3]), actual: read(f[4]),
                           traceback: read(f[5]), phase: read(f[6]))
    }

    /// An optional field's value (written escaped; `unescape` already ran).
    private static func read(_ field: String) -> String? { field.hasPrefix("+") ? String(field.dropFirst()) : nil }

    static func unescape(_ field: Substring) -> String {
        guard field.contains("\\") else { return String(field) }
        var out = ""
        var escaping = false
        for character in field {
            if escaping {
                switch character {
                case "t": out.append("\t")
                case "n": out.append("\n")
                case "r": out.append("\r")
                default: out.append(character)
                }
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                out.append(character)
            }
        }
        return out
    }
}
