import CLua
import CLuaShim

/// A Lua string: bytes, not characters. Embedded NUL bytes and invalid UTF-8
/// survive the trip both ways; `string()` checks UTF-8 where Swift needs it.
///
/// ```swift
/// let raw: LuaString = LuaString(bytes: [0x61, 0x00, 0x62])   // "a\0b"
/// try raw.string()                                           // "a\u{0}b"
/// ```
public struct LuaString: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The bytes, exactly as Lua holds them.
    public var bytes: [UInt8]

    /// A string of `bytes`, exactly.
    public init(bytes: [UInt8]) { self.bytes = bytes }
    /// A string of the UTF-8 bytes of `string`.
    public init(_ string: String) { self.bytes = Array(string.utf8) }
    /// A string of the UTF-8 bytes of the literal.
    public init(stringLiteral value: String) { self.init(value) }

    /// The bytes as a Swift string; throws if they are not valid UTF-8.
    ///
    /// - Throws: a `LuaError` of kind `.encoding` when the bytes are not valid UTF-8.
    public func string() throws -> String {
        guard let s = String(validating: bytes, as: UTF8.self) else {
            throw LuaError(.encoding, "string is not valid UTF-8")
        }
        return s
    }

    /// The bytes as text, invalid sequences replaced by U+FFFD (for display).
    public var description: String { String(decoding: bytes, as: UTF8.self) }

    /// The bytes as text for a message that must stay true: valid UTF-8 as
    /// it is, each byte of an invalid sequence as `\xNN` — so `"\255"` and a
    /// real U+FFFD read differently, and a message is never lost for one bad byte.
    ///
    /// ```swift
    /// LuaString(bytes: [0x61, 0xFF, 0x62]).shown   // a\xFFb
    /// ```
    public var shown: String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var out = ""
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length = lead < 0x80 ? 1 : lead >= 0xC2 && lead < 0xE0 ? 2 : lead >= 0xE0 && lead < 0xF0 ? 3 : lead >= 0xF0 && lead < 0xF5 ? 4 : 0
            if length > 0, index + length <= bytes.count,
               let character = String(validating: bytes[index..<(index + length)], as: UTF8.self) {
                out += character
                index += length
            } else {
                out += "\\x" + (lead < 16 ? "0" : "") + String(lead, radix: 16, uppercase: true)
                index += 1
            }
        }
        return out
    }

    /// The bytes as a Lua literal that spells them exactly: printable ASCII
    /// as it is, `"` and `\` escaped, every other byte as `\ddd` — for a
    /// message about bytes that are not text.
    ///
    /// ```swift
    /// LuaString(bytes: [0x64, 0xE9]).literal      // "d\233" (with the quotes)
    /// ```
    public var literal: String {
        var text = "\""
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): text += "\\" + String(UnicodeScalar(byte))
            case 0x20..<0x7F: text.unicodeScalars.append(UnicodeScalar(byte))
            default: text += "\\\(byte)"
            }
        }
        return text + "\""
    }
}

/// The last string made from some bytes, handed out again while the bytes
/// asked for are the same (``LuaFrame/boundString(_:reusing:)``, chunk and
/// userdata type names).
public final class LuaStringCache {
    var last: String?
    /// An empty cache.
    public init() {}

    /// `bytes` as a string (invalid UTF-8 repaired): the last one, if it
    /// spells the same.
    func string(_ bytes: UnsafeRawBufferPointer) -> String {
        if let last, spells(last, bytes) { return last }
        let text = String(decoding: bytes, as: UTF8.self)
        last = text
        return text
    }

    /// `bytes` as a string if they are valid UTF-8 (nil otherwise): the last
    /// one, if it spells the same.
    func validString(_ bytes: UnsafeRawBufferPointer) -> String? {
        if let last, spells(last, bytes) { return last }
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        last = text
        return text
    }
}

/// Whether `text`'s UTF-8 is exactly `bytes` (a plain loop over both: the
/// generic `elementsEqual` over a string's view cost ~50 instructions a byte).
func spells(_ text: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
    guard text.utf8.count == bytes.count else { return false }
    let same = text.utf8.withContiguousStorageIfAvailable { mine -> Bool in
        var i = 0
        while i < mine.count {
            if mine[i] != bytes[i] { return false }
            i += 1
        }
        return true
    }
    return same ?? text.utf8.elementsEqual(bytes)
}

/// The last string pushed through ``LuaFrame/push(_:reusing:)``, kept in
/// the registry: the same text pushed again is that Lua string, not a new
/// one (Lua does not intern a string of 41 bytes or more, and a script
/// declaring 100,000 things pushed its long file name 100,000 times).
public final class LuaPushedString {
    var text: String?
    var reference: Int32 = 0
    var stateSerial: UInt64 = 0
    /// A string not yet pushed.
    public init() {}
}

extension LuaFrame {
    /// Pushes `text` — the string `cache` kept, when it is the same text in
    /// the same state.
    ///
    /// ```swift
    /// let files = LuaPushedString()
    /// frame.push(origin.file, reusing: files)
    /// ```
    public func push(_ text: String, reusing cache: LuaPushedString) {
        if cache.stateSerial == state.serial, let last = cache.text, last == text {
            fh_getref(L, cache.reference)
            return
        }
        push(text)
        if cache.stateSerial == state.serial, cache.text != nil { fh_unref(L, cache.reference) }
        lua_pushvalue(L, -1)
        cache.reference = fh_ref(L)
        cache.text = text
        cache.stateSerial = state.serial
    }
}
