import FactoryRegistry
import FactoryhostSupport

/// Moves a missing dependency's problem from its registration's first line to
/// the line that names the dependency (`clock = "table#Clokc",` inside a
/// multi-line `deps`), found in the source's tokens from the registration's
/// line. The registration's own line stays in the details.
///
/// Each file is read and its tokens scanned once, however many problems point
/// into it; the same key named twice in one registration (two labels) is the
/// first occurrence for the first problem, the second for the next.
///
/// ```swift
/// var problems = host.problems(after: run)
/// DependencyLines().pointAtDependencyLines(&problems)
/// // typo.lua:5: no registration for table#Clokc …  (was typo.lua:3)
/// ```
struct DependencyLines {
    /// A file's strings and `register` names, in source order, each with its line.
    private struct Scan {
        var strings: [(line: Int, text: String)] = []
        /// The lines of the `register` names, sorted.
        var registers: [Int] = []
    }

    /// Scans so far, by file (nil: not readable).
    private var scans: [String: Scan?] = [:]

    /// `standardInput`: the script's source when it came from standard input (`stdin` in places).
    init(standardInput: [UInt8]? = nil) {
        if let standardInput { scans["stdin"] = .some(Self.scan(standardInput)) }
    }

    mutating func pointAtDependencyLines(_ problems: inout [CheckProblem]) {
        var taken: [String: Int] = [:]        // "file:line key" → occurrences used by earlier problems
        for index in problems.indices {
            let problem = problems[index]
            guard let key = problem.missingKey, let origin = problem.origin, let scan = scan(of: origin.file) else { continue }
            let claim = "\(origin) \(key)"
            let skip = taken[claim, default: 0]
            guard let line = Self.line(naming: key, in: scan, from: origin.line, skipping: skip) else { continue }
            taken[claim] = skip + 1
            if line != origin.line { problems[index].origin = Origin(file: origin.file, line: line) }
        }
    }

    private mutating func scan(of file: String) -> Scan? {
        if let known = scans[file] { return known }
        // A file check read a moment ago (only a regular file: a FIFO would block).
        let scan = Directory.isRegularFile(file) ? readFile(file).map(Self.scan) : nil
        scans[file] = scan
        return scan
    }

    /// The strings of `source` and where `register` is named, in one pass.
    private static func scan(_ source: [UInt8]) -> Scan {
        var lexer = LuaLexer(source)
        var scan = Scan()
        while let token = lexer.nextRaw() {
            switch token.kind {
            case .string: scan.strings.append((lexer.line, lexer.text(token)))
            case .name where lexer.spells(token, "register"): scan.registers.append(lexer.line)
            default: break
            }
        }
        return scan
    }

    /// The line of the first string naming `key` (`"table#Clokc"`, or
    /// `"table#Clokc?"` with a suffix) at or after line `first`, after
    /// `skipping` such strings, and before the next registration's `register`;
    /// nil when there is none.
    private static func line(naming key: String, in scan: Scan, from first: Int, skipping: Int) -> Int? {
        // The next `register` after the one on line `first`: where this registration's text ends.
        let registersFrom = lowerBound(scan.registers.count) { scan.registers[$0] < first }
        var end = Int.max
        if registersFrom < scan.registers.count {
            let next = registersFrom + (scan.registers[registersFrom] == first ? 1 : 0)
            if next < scan.registers.count { end = scan.registers[next] }
        }
        var remaining = skipping
        var index = lowerBound(scan.strings.count) { scan.strings[$0].line < first }
        while index < scan.strings.count, scan.strings[index].line < end {
            let text = scan.strings[index].text
            index += 1
            guard text.hasPrefix(key) else { continue }
            if let next = text.dropFirst(key.count).unicodeScalars.first,
               next.properties.isAlphabetic || ("0"..."9").contains(next) || next == "_" || next == "." || next == "#" { continue }
            if remaining == 0 { return scan.strings[index - 1].line }
            remaining -= 1
        }
        return nil
    }

    /// The first index in `0..<count` for which `isBefore` is false (it is true for a prefix).
    private static func lowerBound(_ count: Int, _ isBefore: (Int) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if isBefore(middle) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
