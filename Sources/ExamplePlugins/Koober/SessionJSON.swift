import FactoryRegistry
import LuaBridge

/// The file-based store's own format, as Koober's `FileUserSessionDataStore`
/// keeps it: the session as a JSON object, `{"user":"…","token":"…"}`. (The
/// property-list coder belongs to the keychain-style store.) Written and
/// read without Foundation; reading takes any JSON object of strings and
/// refuses anything else with a reason.
enum SessionJSON {
    static func encode(_ session: UserSession) -> String {
        "{\"user\":\(jsonString(session.user)),\"token\":\(jsonString(session.token))}\n"
    }

    static func decode(_ text: String) throws -> UserSession {
        var reader = Reader(scalars: Array(text.unicodeScalars))
        let fields = try reader.object()
        guard let user = fields["user"] else { throw failure("it has no \"user\"") }
        return UserSession(user: user, token: fields["token"] ?? "")
    }

    static func failure(_ reason: String) -> LuaError {
        LuaError(.runtime, "not a saved session (JSON): \(reason)")
    }

    /// A reader of one JSON object whose values are strings.
    private struct Reader {
        let scalars: [Unicode.Scalar]
        var at = 0

        mutating func object() throws -> [String: String] {
            skipSpace()
            try expect("{")
            var fields: [String: String] = [:]
            skipSpace()
            if peek == "}" { at += 1; return try end(fields) }
            while true {
                skipSpace()
                let key = try string()
                skipSpace()
                try expect(":")
                skipSpace()
                guard peek == "\"" else { throw SessionJSON.failure("the value of \"\(key)\" is not a string") }
                fields[key] = try string()
                skipSpace()
                guard let next = peek else { throw SessionJSON.failure("it ends inside the object") }
                at += 1
                if next == "}" { return try end(fields) }
                guard next == "," else { throw SessionJSON.failure("\(Self.shown(next)) where ',' or '}' belongs") }
            }
        }

        private mutating func end(_ fields: [String: String]) throws -> [String: String] {
            skipSpace()
            guard at == scalars.count else { throw SessionJSON.failure("more follows the object") }
            return fields
        }

        /// A character for a message: 'x' when printable ASCII, else U+XXXX.
        static func shown(_ scalar: Unicode.Scalar) -> String {
            if (0x21...0x7E).contains(scalar.value) { return "'\(scalar)'" }
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }

        private var peek: Unicode.Scalar? { at < scalars.count ? scalars[at] : nil }

        private mutating func skipSpace() {
            while let scalar = peek, scalar == " " || scalar == "\n" || scalar == "\r" || scalar == "\t" { at += 1 }
        }

        private mutating func expect(_ scalar: Unicode.Scalar) throws {
            guard peek == scalar else {
                throw SessionJSON.failure(peek.map { "\(Self.shown($0)) where '\(scalar)' belongs" } ?? "it ends where '\(scalar)' belongs")
            }
            at += 1
        }

        private mutating func string() throws -> String {
            try expect("\"")
            var out = String.UnicodeScalarView()
            while let scalar = peek {
                at += 1
                switch scalar {
                case "\"": return String(out)
                case "\\":
                    guard let escaped = peek else { break }
                    at += 1
                    switch escaped {
                    case "\"", "\\", "/": out.append(escaped)
                    case "n": out.append("\n")
                    case "r": out.append("\r")
                    case "t": out.append("\t")
                    case "b": out.append("\u{8}")
                    case "f": out.append("\u{C}")
                    case "u": out.append(try unicodeEscape())
                    default: throw SessionJSON.failure("an unknown escape \\\(escaped)")
                    }
                default:
                    guard scalar.value >= 0x20 else { throw SessionJSON.failure("a control character inside a string") }
                    out.append(scalar)
                }
            }
            throw SessionJSON.failure("a string that does not end")
        }

        /// After `\u`: four hex digits, and a second `\uXXXX` for a surrogate pair.
        private mutating func unicodeEscape() throws -> Unicode.Scalar {
            let first = try hex4()
            if (0xD800..<0xDC00).contains(first) {
                guard peek == "\\", at + 1 < scalars.count, scalars[at + 1] == "u" else {
                    throw SessionJSON.failure("half of a surrogate pair")
                }
                at += 2
                let second = try hex4()
                guard (0xDC00..<0xE000).contains(second),
                      let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)) else {
                    throw SessionJSON.failure("half of a surrogate pair")
                }
                return scalar
            }
            guard let scalar = Unicode.Scalar(first) else { throw SessionJSON.failure("half of a surrogate pair") }
            return scalar
        }

        private mutating func hex4() throws -> UInt32 {
            guard at + 4 <= scalars.count, scalars[at..<at + 4].allSatisfy(\.properties.isASCIIHexDigit),
                  let value = UInt32(String(String.UnicodeScalarView(scalars[at..<at + 4])), radix: 16) else {
                throw SessionJSON.failure("\\u without four hex digits")
            }
            at += 4
            return value
        }
    }
}
