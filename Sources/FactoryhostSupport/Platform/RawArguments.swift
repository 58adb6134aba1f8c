/// The command line as the bytes it was given: Swift's `CommandLine.arguments`
/// repairs bytes that are not UTF-8 (a Latin-1 file name, a binary argument)
/// into U+FFFD, where lua5.4 hands a script its arguments unchanged.
///
/// ```swift
/// let argv = CommandLine.arguments + ["run", "-"]
/// RawArguments.bytes(for: argv)     // nil when every argument is text; else each word's bytes
/// ```
package enum RawArguments {
    /// Each argument's bytes, when some argument is not UTF-8 text; nil when all are.
    package static let given: [[UInt8]]? = {
        let words = (0..<Int(CommandLine.argc)).map { index -> [UInt8] in
            guard let word = CommandLine.unsafeArgv[index] else { return [] }
            return Array(UnsafeRawBufferPointer(start: word, count: strlen(word)))
        }
        // (Plain ASCII, the usual command line, is text without decoding it.)
        return words.allSatisfy { $0.allSatisfy { $0 < 0x80 } || String(validating: $0, as: UTF8.self) != nil } ? nil : words
    }()

    /// The bytes of each word of `argv` — the command line with words put in
    /// (`run`, `-`), in order — when some argument given is not text; nil
    /// when all are. A word given is matched in order by its repaired
    /// spelling; a word put in is its own UTF-8.
    package static func bytes(for argv: [String]) -> [[UInt8]]? {
        guard let given else { return nil }
        var next = 0
        return argv.map { word in
            if next < given.count, String(decoding: given[next], as: UTF8.self) == word {
                next += 1
                return given[next - 1]
            }
            return Array(word.utf8)
        }
    }
}
