import CLuaShim
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

/// This process's own executable, as an absolute path (nil if the system
/// will not say): what starts another process of the same program.
///
/// ```swift
/// let factoryhost = executablePath()     // "/usr/local/bin/factoryhost"
/// ```
public func executablePath() -> String? {
    #if os(Linux)
    var buffer = [CChar](repeating: 0, count: 4096)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard length > 0 else { return nil }
    return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    #elseif canImport(Darwin)
    var size: UInt32 = 4096
    var buffer = [CChar](repeating: 0, count: Int(size))
    guard _NSGetExecutablePath(&buffer, &size) == 0 else { return nil }
    return String(cString: buffer)
    #else
    return nil
    #endif
}

/// The environment variable `name`, if set.
func environmentVariable(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    return String(cString: value)
}

/// Makes standard output line-buffered, so that its lines and standard
/// error's reach a shared file in the order they were written (the test
/// runner's workers capture both in one file).
public func lineBufferStandardOutput() {
    fh_line_buffer_stdout()
}

/// Flushes standard output; why what was written did not all get there
/// (`No space left on device`), or nil if it did.
///
/// ```swift
/// print(report)
/// if let failure = flushStandardOutput() { writeToStandardError("cannot write standard output: \(failure)\n") }
/// ```
public func flushStandardOutput() -> String? {
    switch fh_flush_stdout() {
    case 0: return nil
    case -1: return "an earlier write to it failed"
    case let failure: return String(cString: strerror(failure))
    }
}
