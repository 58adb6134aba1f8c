import CLineEditor
import FactoryhostSupport

/// Why a terminal has no line editing: libedit could not be loaded.
public struct LineEditorUnavailable: Error, CustomStringConvertible {
    public let reason: String
    public var description: String { reason }
}

/// A terminal, through libedit: Emacs keys, history kept in a file (capped
/// at ``historyLimit`` entries), Tab completion, and Ctrl-C clearing the line.
public final class LineEditor: LineInput {
    private let historyFile: String?
    /// The most entries the history file keeps.
    public static let historyLimit: Int32 = 1000
    /// The characters that end a word for completion (`.` and `:` do not:
    /// the completer sees `loader:lo` whole).
    static let wordBreaks = " \t\n\"'`@$><=;|&{(,)}[]+-*/%^~"

    /// `complete(text before the cursor)` gives the candidates and how many
    /// characters before the cursor they replace. libedit is loaded here
    /// (only the REPL pays for it); if it cannot be, this throws why.
    public init(historyFile: String?, complete: @escaping (String) -> (candidates: [String], replacing: Int)) throws(LineEditorUnavailable) {
        var historyFile = historyFile
        if let file = historyFile, let why = Self.notAHistoryFile(file) {
            let message = Array("\(ProgramName.current): no history is kept: \(MessageText.oneLine(file)) \(why)\n".utf8)
            _ = message.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            historyFile = nil
        }
        self.historyFile = historyFile
        LineEditor.completer = complete
        // (A folder that cannot be made only means no history is kept.)
        if let historyFile { try? POSIX.makeParentDirectories(of: historyFile, mode: 0o700) }
        var why = [CChar](repeating: 0, count: 256)
        let status = fh_edit_setup(ProgramName.current, Self.wordBreaks, { line, text in
            LineEditor.completions(line: line.map { String(cString: $0) } ?? "", word: text.map { String(cString: $0) } ?? "")
        }, historyFile, Self.historyLimit, &why, why.count)
        guard status == 0 else {
            LineEditor.completer = nil
            throw LineEditorUnavailable(reason: String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
    }

    public func readLine(prompt: String) -> LineInputResult {
        var interrupted: Int32 = 0
        guard let raw = fh_edit_readline(prompt, &interrupted) else {
            if interrupted != 0 {
                writeLine("")
                return .interrupted
            }
            writeLine("")                                     // Ctrl-D: end the prompt's line
            return .end
        }
        defer { free(raw) }
        return .line(Array(UnsafeBufferPointer(start: UnsafeRawPointer(raw).assumingMemoryBound(to: UInt8.self), count: strlen(raw))))
    }

    public func remember(_ entry: String) {
        guard !entry.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\n" }) else { return }
        fh_edit_remember(entry, historyFile, Self.historyLimit)
    }

    private func writeLine(_ text: String) {
        print(text)
        fflush(nil)
    }

    // MARK: Completion (a C callback: no context, so a static)

    /// nonisolated(unsafe): libedit's callback has no context, and libedit itself is process-global; set by init
    /// and read by the callback inside `readLine`, both on the REPL's thread (one line editor per process).
    nonisolated(unsafe) static var completer: ((String) -> (candidates: [String], replacing: Int))?

    /// Candidates replacing `word` (libedit's word before the cursor), from
    /// the completer's answer for the whole `line` up to the cursor, in
    /// readline's malloc'd form.
    static func completions(line: String, word: String) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        guard let completer else { return nil }
        let (candidates, replacing) = completer(line)
        guard !candidates.isEmpty else { return nil }
        // libedit replaces `word`; the candidates replace the last `replacing` characters of the line.
        let full = Self.replacingWord(word, candidates: candidates, replacing: replacing, line: line)
        guard !full.isEmpty else { return nil }
        let common = full.dropFirst().reduce(full[0]) { prefix, item in String(zip(prefix, item).prefix { $0 == $1 }.map(\.0)) }
        let count = full.count == 1 ? 1 : full.count + 1
        guard let matches = calloc(count + 1, MemoryLayout<UnsafeMutablePointer<CChar>?>.stride)?
            .assumingMemoryBound(to: UnsafeMutablePointer<CChar>?.self) else { return nil }
        matches[0] = strdup(full.count == 1 ? full[0] : common)
        if full.count > 1 { for (index, item) in full.enumerated() { matches[index + 1] = strdup(item) } }
        return matches
    }


    /// What replaces libedit's `word` for candidates that replace the last
    /// `replacing` characters of `line`. libedit's word ends at a break
    /// character (`app-t` is `t` to it, `"staging e` is `e`): a candidate
    /// reaching further back must start with what stands there, which is
    /// then left as typed; one that does not cannot be offered.
    static func replacingWord(_ word: String, candidates: [String], replacing: Int, line: String) -> [String] {
        if replacing <= word.count {
            let keep = String(word.dropLast(replacing))
            return candidates.map { keep + $0 }
        }
        let before = String(line.suffix(replacing).dropLast(word.count))
        return candidates.compactMap { $0.hasPrefix(before) ? String($0.dropFirst(before.count)) : nil }
    }

    /// Why the file at `path` must not be written as the history — a
    /// symbolic link (the REPL wrote through it, over what it named), not a
    /// plain file, or a file that is not libedit's history (it replaced
    /// one) — or nil: it is one, empty, or not there yet.
    static func notAHistoryFile(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFLNK: return "is a symbolic link (the history is written only to a file of its own)"
        case S_IFREG: break
        default: return "is not a file"
        }
        guard info.st_size > 0 else { return nil }
        let header = Array("_HiStOrY_V2_".utf8)
        guard let start = Directory.firstBytes(of: path, count: header.count) else { return "cannot be read" }
        return start == header ? nil : "is not a history file (it does not start with _HiStOrY_V2_), and is left as it is"
    }

    /// `$XDG_STATE_HOME/factoryhost/history`, else `~/.local/state/factoryhost/history`.
    public static func defaultHistoryFile() -> String? {
        // (A folder that is not UTF-8 text is no place for it: repaired, another folder was made.)
        if let state = getenv("XDG_STATE_HOME").flatMap({ String(validatingCString: $0) }), state.hasPrefix("/") {
            return state + "/\(ProgramName.current)/history"
        }
        guard let home = getenv("HOME").flatMap({ String(validatingCString: $0) }), !home.isEmpty else { return nil }
        return home + "/.local/state/\(ProgramName.current)/history"
    }
}
