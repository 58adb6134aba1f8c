/// What a directory holds, read with `opendir`/`readdir` (Foundation would
/// add to every start-up).
///
/// ```swift
/// for name in Directory.entries("plugins") ?? [] { print(name) }   // sorted, no "." or ".."
/// ```
package enum Directory {
    /// The names in directory `path`, sorted (never `.` or `..`; hidden ones
    /// too unless `hidden` is false); nil if it cannot be read.
    package static func entries(_ path: String, hidden: Bool = true) -> [String]? {
        var notText: [NotText] = []
        return entries(path, hidden: hidden, notText: &notText)
    }

    /// An entry whose name is not UTF-8 text (a Latin-1 `café`): no path a
    /// String spells reaches it, so it is named with its bytes escaped.
    package struct NotText: Sendable {
        /// The name, each byte that is not UTF-8 as `\xNN`.
        package let shown: String
        /// Whether it is a directory (following a link).
        package let isDirectory: Bool
        /// Whether the name ends as a spec file's does (`_spec.lua`).
        package let endsAsSpec: Bool
    }

    /// The names in directory `path` that are text, sorted; those that are
    /// not go to `notText` (String(cString:) made them U+FFFD: a path that
    /// names nothing, passed over in silence).
    package static func entries(_ path: String, hidden: Bool = true, notText: inout [NotText]) -> [String]? {
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 0
        var names: [String] = []
        while let entry = readdir(dir) {
            // The name where it is: a dirent may be shorter than the struct
            // (its d_name holds just the name), so the field is never copied whole.
            let raw = UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self)
            guard let name = String(validatingCString: raw) else {
                let bytes = UnsafeRawBufferPointer(start: raw, count: strlen(raw))
                if !hidden && bytes.first == UInt8(ascii: ".") { continue }
                var info = stat()
                let isDirectory = fstatat(dirfd(dir), raw, &info, 0) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
                notText.append(NotText(shown: TextEscaping.shownBytes(bytes), isDirectory: isDirectory,
                                       endsAsSpec: bytes.count >= 9 && Array(bytes.suffix(9)) == Array("_spec.lua".utf8)))
                continue
            }
            if name == "." || name == ".." || (!hidden && name.hasPrefix(".")) { continue }
            names.append(name)
        }
        return names.sorted()
    }

    /// Whether `path` is a directory (following links).
    package static func isDirectory(_ path: String) -> Bool { kind(of: path) == S_IFDIR }

    /// Whether `path` is a regular file (following links).
    package static func isRegularFile(_ path: String) -> Bool { kind(of: path) == S_IFREG }

    /// The size in bytes of the file at `path` (links followed), if it can be read.
    ///
    /// ```swift
    /// Directory.size(of: "manifest.lua")     // 312
    /// ```
    package static func size(of path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }

    /// The first `count` bytes of the file at `path` (fewer if it is
    /// shorter); nil when it cannot be read. Ask only of a regular file:
    /// opening a FIFO blocks.
    ///
    /// ```swift
    /// Directory.firstBytes(of: "types/factoryhost.lua", count: 8)   // Array("---@meta".utf8)
    /// ```
    package static func firstBytes(of path: String, count: Int) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes = [UInt8](repeating: 0, count: count)
        let read = fread(&bytes, 1, count, file)
        return Array(bytes.prefix(read))
    }

    /// What `path` is when it exists and is not a regular file or a
    /// directory — `"a FIFO"`, `"a device"`, `"a socket"` — for a message
    /// that refuses it (following links); nil otherwise.
    ///
    /// ```swift
    /// Directory.specialKind("/dev/null")   // "a device"
    /// ```
    package static func specialKind(_ path: String) -> String? {
        switch kind(of: path) {
        case S_IFIFO?: "a FIFO"
        case S_IFCHR?, S_IFBLK?: "a device"
        case S_IFSOCK?: "a socket"
        default: nil
        }
    }

    private static func kind(of path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
    }
}
