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

    public init(bytes: [UInt8]) { self.bytes = bytes }
    public init(_ string: String) { self.bytes = Array(string.utf8) }
    public init(stringLiteral value: String) { self.init(value) }

    /// The bytes as a Swift string; throws if they are not valid UTF-8.
    public func string() throws -> String {
        guard let s = String(validating: bytes, as: UTF8.self) else {
            throw LuaError(.encoding, "string is not valid UTF-8")
        }
        return s
    }

    /// The bytes as text, invalid sequences replaced by U+FFFD (for display).
    public var description: String { String(decoding: bytes, as: UTF8.self) }
}
