import FactoryRegistry
import LuaBridge

extension LuaFrame {
    /// The script file and line of the Lua code `level` calls up (1: the
    /// caller of this function), as a registration origin.
    func origin(level: Int32 = 1) -> Origin {
        Origin(parsingWhere: location(level: level))
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
