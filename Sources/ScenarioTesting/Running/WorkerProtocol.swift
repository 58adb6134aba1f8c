import FactoryScripting
import FactoryhostSupport

/// What a worker process tells the runner about one spec file, a line per
/// event on its report pipe:
///
///     start <TAB> seconds <TAB> test…        a test began, with its time limit (and all
///                                            the runner needs to name it if the worker dies)
///     result <TAB> test… <TAB> outcome…      a test ended
///     load <TAB> failure…                    the file could not be loaded
///     test <TAB> test…                       a selected test (`--list`: nothing runs)
///     coverage <TAB> configuration <TAB> key <TAB> origin <TAB> 0|1
///                                            a registration, and whether the tests built it (--coverage)
///     done                                   every selected test ran
///     mark <TAB> offset                      the worker's output so far ends here
///     hook <TAB> name <TAB> place            a hook of the running test began (`after_all`,
///                                            `spec.lua:4`); both empty: it ended
///
/// Each report line comes after a `mark`: how far the worker's standard
/// output (a file) had been written when it reported, so that the runner,
/// reading later, gives each test the output it printed, not what the next
/// test has printed since.
///
/// Fields are escaped by Unicode scalar (`\\`, `\t`, `\n`, `\r`, `\0`, `\s`
/// for U+001F), so a line holds no tab, newline or NUL of its own; absent
/// optional fields are `-`, present ones start with `+`; a list's elements
/// each start with `+` and are joined with U+001F.
enum WorkerProtocol {
    static let separator: Character = "\u{1F}"

    // MARK: Writing

    static func start(_ test: TestCase, limit: Double) -> String {
        (["start", String(limit)] + fields(of: test)).joined(separator: "\t")
    }

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

    static func listed(_ test: TestCase) -> String { (["test"] + fields(of: test)).joined(separator: "\t") }

    static let done = "done"

    static func coverage(_ entry: RegistrationCoverage.Entry) -> String {
        ["coverage", escape(entry.configuration), escape(entry.key), escape(entry.origin), entry.built ? "1" : "0"].joined(separator: "\t")
    }

    static func mark(_ offset: Int64) -> String { "mark\t\(offset)" }

    static func hook(_ name: String, place: String) -> String { ["hook", escape(name), escape(place)].joined(separator: "\t") }

    private static func list(_ items: [String]) -> String {
        items.map { "+" + escape($0) }.joined(separator: String(separator))
    }

    private static func fields(of test: TestCase) -> [String] {
        [String(test.index), escape(test.name), list(test.path), escape(test.file),
         String(test.line), list(test.tags), optional(test.configuration),
         optional(test.timeout.map { String($0) }), test.isPending ? "1" : "0"]
    }

    private static func fields(of failure: TestFailure) -> [String] {
        [failure.kind.rawValue, escape(failure.message), optional(failure.location), optional(failure.expected),
         optional(failure.actual), optional(failure.traceback), optional(failure.phase)]
    }

    static func escape(_ text: String) -> String { fieldEscaping.escaped(text) }

    /// A field on one line of the protocol: tabs separate fields, a line ends
    /// a record, and U+001F separates a list's items (`unescape` reads them back).
    private static let fieldEscaping = TextEscaping(replacements: ["\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r",
                                                                   "\0": "\\0", "\u{1F}": "\\s"], control: nil)

    private static func optional(_ text: String?) -> String { text.map { "+" + escape($0) } ?? "-" }

    // MARK: Reading

    enum Event {
        case start(TestCase, limit: Double)
        case result(TestResult)
        case load(TestFailure)
        case listed(TestCase)
        case coverage(RegistrationCoverage.Entry)
        case done
        case mark(offset: Int64)
        case hook(name: String, place: String)
    }

    static func event(_ line: Substring) -> Event? {
        let raw = line.split(separator: "\t", omittingEmptySubsequences: false)
        let fields = raw.map(unescape)
        switch fields.first {
        case "start":
            guard fields.count == 11, let limit = Double(fields[1]), limit.isFinite,
                  let test = testCase(fields[2...10], rawPath: raw[4], rawTags: raw[7]) else { return nil }
            return .start(test, limit: limit)
        case "test":
            guard fields.count == 10, let test = testCase(fields[1...9], rawPath: raw[3], rawTags: raw[6]) else { return nil }
            return .listed(test)
        case "done": return fields.count == 1 ? .done : nil
        case "coverage":
            guard fields.count == 5, fields[4] == "0" || fields[4] == "1" else { return nil }
            return .coverage(RegistrationCoverage.Entry(configuration: fields[1], key: fields[2], origin: fields[3], built: fields[4] == "1"))
        case "mark": return fields.count == 2 ? Int64(fields[1]).flatMap { $0 >= 0 ? .mark(offset: $0) : nil } : nil
        case "hook": return fields.count == 3 ? .hook(name: fields[1], place: fields[2]) : nil
        case "load": return failure(fields.dropFirst()).map { .load($0) }
        case "result":
            guard fields.count >= 12, let test = testCase(fields[1...9], rawPath: raw[3], rawTags: raw[6]),
                  let duration = Double(fields[10]) else { return nil }
            switch fields[11] {
            case "passed" where fields.count == 12: return .result(TestResult(test: test, outcome: .passed, duration: duration))
            case "skipped" where fields.count == 13:
                return .result(TestResult(test: test, outcome: .skipped(fields[12]), duration: duration))
            case "failed":
                return failure(fields.dropFirst(12)).map { .result(TestResult(test: test, outcome: .failed($0), duration: duration)) }
            default: return nil
            }
        default: return nil
        }
    }

    /// A list field, from its escaped text: split first, then each element unescaped.
    private static func list(raw: Substring) -> [String]? {
        if raw.isEmpty { return [] }
        var items: [String] = []
        for element in raw.split(separator: separator, omittingEmptySubsequences: false) {
            guard element.hasPrefix("+") else { return nil }
            items.append(unescape(element.dropFirst()))
        }
        return items
    }

    private static func testCase(_ f: ArraySlice<String>, rawPath: Substring, rawTags: Substring) -> TestCase? {
        let f = Array(f)
        guard f.count == 9, let index = Int(f[0]), let line = Int(f[4]),
              let path = list(raw: rawPath), let tags = list(raw: rawTags) else { return nil }
        return TestCase(index: index, name: f[1], path: path, file: f[3], line: line, tags: tags,
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
        var out = String.UnicodeScalarView()
        var escaping = false
        for scalar in field.unicodeScalars {
            if escaping {
                switch scalar {
                case "t": out.append("\t")
                case "n": out.append("\n")
                case "r": out.append("\r")
                case "0": out.append("\0")
                case "s": out.append("\u{1F}")
                default: out.append(scalar)
                }
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}
