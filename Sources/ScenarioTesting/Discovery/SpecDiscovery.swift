#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds spec files: every `*_spec.lua` under the directories given (hidden
/// directories and `.build` skipped), and any file given by path as it is.
///
/// ```swift
/// let files = try SpecDiscovery.files(in: ["Examples", "extra/one_spec.lua"])
/// ```
public enum SpecDiscovery {
    /// The spec files under `paths`, each directory's sorted by path; a file
    /// given twice is run once.
    public static func files(in paths: [String]) throws(DiscoveryError) -> [String] {
        var found: [String] = []
        for path in paths {
            var info = stat()
            guard stat(path, &info) == 0 else {
                throw DiscoveryError(message: "\(path): no such file or directory")
            }
            if info.st_mode & S_IFMT == S_IFDIR {
                var inDirectory: [String] = []
                walk(path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path, into: &inDirectory)
                found += inDirectory.sorted()
            } else {
                found.append(path)
            }
        }
        var seen = Set<String>()
        return found.filter { seen.insert(normalized($0)).inserted }
    }

    private static func walk(_ directory: String, into files: inout [String]) {
        guard let dir = opendir(directory) else { return }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name.hasPrefix(".") { continue }
            let path = directory == "." ? name : "\(directory)/\(name)"
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFDIR {
                walk(path, into: &files)
            } else if name.hasSuffix("_spec.lua") {
                files.append(path)
            }
        }
    }

    private static func normalized(_ path: String) -> String {
        path.hasPrefix("./") ? String(path.dropFirst(2)) : path
    }
}

/// A path that names nothing.
public struct DiscoveryError: Error, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
