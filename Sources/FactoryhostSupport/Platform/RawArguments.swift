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

    /// Whether `bytes` are UTF-8 text.
    package static func isText(_ bytes: [UInt8]) -> Bool {
        bytes.allSatisfy { $0 < 0x80 } || String(validating: bytes, as: UTF8.self) != nil
    }

    /// Refuses (on standard error, exiting 1) a word of the command line
    /// that is not UTF-8 text, but those at `passed` (a script's path, its
    /// arguments, a `-e` statement: bytes lua5.4 passes through): an option's
    /// value or a name read as text would be looked for repaired — a folder
    /// named U+FFFD, a configuration so named — and a different file or
    /// value used (attack 11).
    package static func refuseWordsThatAreNotText(_ argv: [String], passing passed: (Int) -> Bool = { _ in false },
                                                  program: String, command: String) {
        guard let bytes = bytes(for: argv) else { return }
        for (index, word) in bytes.enumerated().dropFirst() where !passed(index) && !isText(word) {
            let text = "\(program): \(command): '\(TextEscaping.shownBytes(word))' is not UTF-8 text: options, paths and names "
                + "are read as text (run passes its script, the script's arguments and -e statements through as bytes)\n"
            _ = text.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
            exit(1)
        }
    }
}
