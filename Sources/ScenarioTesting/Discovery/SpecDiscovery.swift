import FactoryhostSupport

/// Finds spec files: every `*_spec.lua` under the directories given (hidden
/// directories and `.build` skipped, and a folder below that holds a Swift
/// package of its own — another project, with its own host, whose specs that
/// host runs: `Examples/shop`), and any file given by path as it is.
///
/// ```swift
/// let files = try SpecDiscovery.files(in: ["Examples", "extra/one_spec.lua"])
/// ```
public enum SpecDiscovery {
    /// Whether `path` names a spec file: its name ends in `_spec.lua`.
    ///
    /// ```swift
    /// SpecDiscovery.isSpecFile("spec/cart_spec.lua")    // true
    /// ```
    public static func isSpecFile(_ path: String) -> Bool { path.hasSuffix("_spec.lua") }

    /// The spec files under `paths`, each directory's sorted by path; a file
    /// given twice is run once.
    ///
    /// - Throws: ``DiscoveryError`` for a path that does not exist or cannot be read,
    ///   or a spec file that is a FIFO, a device or a socket.
    public static func files(in paths: [String]) throws(DiscoveryError) -> [String] {
        var found: [String] = []
        var visited = Set<FileIdentity>()          // directories walked: a symlink loop is walked once
        for path in paths {
            var info = stat()
            guard stat(path, &info) == 0 else {
                throw DiscoveryError(message: "\(path): no such file or directory")
            }
            if info.st_mode & S_IFMT == S_IFDIR {
                var inDirectory: [String] = []
                try walk(path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path, info, into: &inDirectory, visited: &visited)
                found += inDirectory.sorted()
            } else {
                try refuseSpecial(path)
                found.append(path)
            }
        }
        // Each real file once, whichever path (or link) reached it first.
        var seen = Set<FileIdentity>()
        return found.filter { path in
            var info = stat()
            guard stat(path, &info) == 0 else { return true }
            return seen.insert(FileIdentity(info)).inserted
        }
    }

    /// A file's device and inode: what two paths to one file share.
    private struct FileIdentity: Hashable {
        let device: UInt64
        let inode: UInt64
        init(_ info: stat) {
            device = UInt64(truncatingIfNeeded: info.st_dev)
            inode = UInt64(truncatingIfNeeded: info.st_ino)
        }
    }

    /// A spec file is read by a worker process (and by `--list`), each
    /// opening it: a FIFO or device would block them or be read once.
    private static func refuseSpecial(_ path: String) throws(DiscoveryError) {
        if let kind = Directory.specialKind(path) {
            throw DiscoveryError(message: "\(path): not a regular file (\(kind)): a spec file must be a file")
        }
    }

    private static func walk(_ directory: String, _ info: stat, into files: inout [String],
                             visited: inout Set<FileIdentity>) throws(DiscoveryError) {
        guard visited.insert(FileIdentity(info)).inserted else { return }
        // Nothing under the folders given is skipped in silence: a spec that
        // cannot be reached would make a failing run green.
        var notText: [Directory.NotText] = []
        guard let names = Directory.entries(directory, hidden: false, notText: &notText) else {
            throw DiscoveryError(message: "\(shown(directory)): cannot read this directory (\(String(cString: strerror(errno))))")
        }
        // A spec, or a folder that may hold specs, whose name is not UTF-8 text cannot be run (a failing one made the run green).
        if let unreachable = notText.first(where: { $0.isDirectory || $0.endsAsSpec }) {
            let path = shown(directory == "." ? unreachable.shown : "\(directory)/\(unreachable.shown)")
            throw DiscoveryError(message: "\(path): a \(unreachable.isDirectory ? "folder" : "spec file") whose name is not UTF-8 text "
                                 + "cannot be run\(unreachable.isDirectory ? " (nor the specs in it)" : ""): rename it")
        }
        for name in names {                          // in order: the first path to a file is the one kept
            let path = directory == "." ? name : "\(directory)/\(name)"
            var info = stat()
            guard stat(path, &info) == 0 else {
                let reason = errno
                // A link to nothing (a build's leftover) is not a folder or a spec; a file gone meanwhile is not either.
                var link = stat()
                if reason == ENOENT && (lstat(path, &link) != 0 || !isSpecFile(name)) { continue }
                throw DiscoveryError(message: "\(shown(path)): cannot be read (\(String(cString: strerror(reason))))"
                                     + (reason == ENAMETOOLONG ? ": the path is longer than the system allows (\(path.utf8.count) bytes)" : ""))
            }
            if info.st_mode & S_IFMT == S_IFDIR {
                // A package of its own below the folder given: its own host runs its specs (named, it is walked).
                if Directory.isRegularFile(path + "/Package.swift") { continue }
                try walk(path, info, into: &files, visited: &visited)
            } else if isSpecFile(name) {
                try refuseSpecial(path)
                files.append(path)
            }
        }
    }

    /// A path as a message shows it: escaped, and its middle cut when it is long.
    private static func shown(_ path: String) -> String {
        let escaped = path.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined()
        guard escaped.count > 300 else { return escaped }
        return String(escaped.prefix(100)) + "…(\(escaped.count - 300) characters)…" + String(escaped.suffix(200))
    }

    private static func normalized(_ path: String) -> String {
        path.hasPrefix("./") ? String(path.dropFirst(2)) : path
    }
}

/// A path that names nothing.
public struct DiscoveryError: Error, CustomStringConvertible {
    /// What is wrong, naming the path.
    public let message: String
    /// An error saying `message`.
    public init(message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}
