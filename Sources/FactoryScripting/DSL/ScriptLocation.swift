import FactoryRegistry
import LuaBridge

extension LuaFrame {
    /// The script file and line of the Lua code `level` calls up (1: the
    /// caller of this function), as a registration origin.
    func origin(level: Int32 = 1) -> Origin {
        guard let (chunk, line) = position(level: level) else { return Origin(file: "?", line: 0) }
        return Origin(file: chunk, line: line)
    }

    /// Pushes `origin` as two values (see ``boundOrigin(at:files:)``).
    func push(_ origin: Origin, files: LuaPushedString) {
        push(origin.file, reusing: files)
        push(origin.line)
    }

    /// The origin bound as values `index` and `index + 1`.
    func boundOrigin(at index: Int32, files: LuaStringCache) -> Origin {
        Origin(file: boundString(index, reusing: files) ?? "?", line: boundInteger(index + 1) ?? 0)
    }
}

extension Origin {
    /// Parses Lua's `"chunk:line: "` position prefix (`"?:0"` when empty).
    init(parsingWhere text: String) {
        var trimmed = Substring(text)
        if trimmed.hasSuffix(": ") { trimmed = trimmed.dropLast(2) }
        if let colon = trimmed.lastIndex(of: ":"), let line = Int(trimmed[trimmed.index(after: colon)...]) {
            self.init(file: String(trimmed[..<colon]), line: line)
        } else {
            self.init(file: trimmed.isEmpty ? "?" : String(trimmed), line: 0)
        }
    }
}
