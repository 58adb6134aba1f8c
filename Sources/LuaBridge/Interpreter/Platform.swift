#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes `text` to standard error unbuffered, as lua.c's
/// `lua_writestringerror` does.
public func writeToStandardError(_ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        if written <= 0 { return }
        bytes = bytes.dropFirst(written)
    }
}

/// The environment variable `name`, if set.
func environmentVariable(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    return String(cString: value)
}
