import FactoryRegistry
import FactoryhostSupport

/// Moves a missing dependency's problem from its registration's first line to
/// the line that names the dependency (`clock = "table#Clokc",` inside a
/// multi-line `deps`), found by reading the source's tokens from the
/// registration's line. The registration's own line stays in the details.
///
/// ```swift
/// var problems = host.problems(after: run)
/// DependencyLines().pointAtDependencyLines(&problems)
/// // typo.lua:5: no registration for table#Clokc …  (was typo.lua:3)
/// ```
struct DependencyLines {
    /// Sources read so far, by file (nil: not readable).
    private var sources: [String: [UInt8]?] = [:]

    /// `standardInput`: the script's source when it came from standard input (`stdin` in places).
    init(standardInput: [UInt8]? = nil) {
        if let standardInput { sources["stdin"] = .some(standardInput) }
    }

    mutating func pointAtDependencyLines(_ problems: inout [CheckProblem]) {
        for index in problems.indices {
            let problem = problems[index]
            guard let key = problem.missingKey, let origin = problem.origin, let source = source(of: origin.file),
                  let line = Self.line(naming: key, in: source, from: origin.line), line != origin.line else { continue }
            problems[index].origin = Origin(file: origin.file, line: line)
        }
    }

    private mutating func source(of file: String) -> [UInt8]? {
        if let known = sources[file] { return known }
        // A file check read a moment ago (only a regular file: a FIFO would block).
        let bytes = Directory.isRegularFile(file) ? readFile(file) : nil
        sources[file] = bytes
        return bytes
    }

    /// The line of the first string naming `key` (`"table#Clokc"`, or
    /// `"table#Clokc?"` with a suffix) at or after `first`, before the next
    /// registration; nil when none is found within a bounded read.
    static func line(naming key: String, in source: [UInt8], from first: Int) -> Int? {
        var lexer = LuaLexer(source)
        var tokensRead = 0
        var registers = 0
        while let token = lexer.nextRaw() {
            let line = lexer.line
            if line < first { continue }
            tokensRead += 1
            if tokensRead > 4000 { return nil }
            if token.kind == .name, lexer.spells(token, "register") {
                registers += 1
                if registers > 1 { return nil }          // the next registration: not this one's
            }
            guard token.kind == .string else { continue }
            let text = lexer.text(token)
            guard text.hasPrefix(key) else { continue }
            if let next = text.dropFirst(key.count).unicodeScalars.first,
               next.properties.isAlphabetic || ("0"..."9").contains(next) || next == "_" || next == "." || next == "#" { continue }
            return line
        }
        return nil
    }
}
