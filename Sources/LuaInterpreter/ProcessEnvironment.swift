import FactoryhostSupport

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

/// The environment variable `name`'s bytes, if set (a value that is not
/// UTF-8 text stays as it is).
func environmentBytes(_ name: String) -> [UInt8]? {
    guard let value = getenv(name) else { return nil }
    return Array(UnsafeRawBufferPointer(start: value, count: strlen(value)))
}
