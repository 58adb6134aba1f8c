/// A report file a command writes (`--junit`, `--coverage-json`): written
/// whole or not at all — to a temporary file beside it, then renamed over
/// it — so an interrupted run leaves neither half a report nor, once the
/// run has begun, the previous run's report passing as this one's.
///
/// ```swift
/// let report = ReportFile(path: "reports/junit.xml")
/// try report.clear()                       // as the run begins
/// try report.write(Array(xml.utf8))        // as it ends
/// ```
package struct ReportFile: Sendable {
    package let path: String

    package init(path: String) { self.path = path }

    /// Why it could not be written.
    package struct Failure: Error, CustomStringConvertible {
        package let path: String
        package let reason: String
        package var description: String { "cannot write \(MessageText.oneLine(MessageText.bounded(path, limit: 1024))): \(reason)" }
    }

    /// Why writing it would fail, as far as can be told before a run (its
    /// folder is missing, not a folder, or not writable), or nil — so a run
    /// that could not keep its report says so before it spends its time.
    package func problemBeforeWriting() -> String? {
        var info = stat()
        if lstat(path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG {
            // A device, FIFO or link is written into, as it is.
            return access(path, W_OK) == 0 || errno == ENOENT ? nil : String(cString: strerror(errno))
        }
        let folder = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let shown = MessageText.oneLine(MessageText.bounded(folder, limit: 1024))
        guard stat(folder, &info) == 0 else { return "its folder \(shown) \(errno == ENOENT ? "does not exist" : String(cString: strerror(errno)))" }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return "\(shown) is not a folder" }
        // A file made and removed there says it (access() lets root pass where a write fails: /proc).
        let probe = (folder == "/" ? "" : folder) + "/.\(path.split(separator: "/").last ?? "report").partial-\(getpid())"
        let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return "cannot make a file in its folder \(shown) (\(String(cString: strerror(errno))))" }
        close(descriptor)
        unlink(probe)
        return nil
    }

    /// Removes the previous run's file, if there is one (nothing else: a
    /// directory or a special file there is left, and writing will say so).
    package func clear() {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return }
        unlink(path)
    }

    /// Writes `bytes` to a temporary file in the same directory, flushes it
    /// to the disk, and renames it to `path`.
    ///
    /// - Throws: ``Failure`` naming the path and the system's reason (a full disk shows here).
    package func write(_ bytes: [UInt8]) throws {
        // Only a plain file is replaced whole: a device (/dev/stdout, /dev/full),
        // a FIFO or a symbolic link is written into, as it is (a rename would
        // put a file in its place).
        var info = stat()
        if lstat(path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG {
            // Opened without blocking: a FIFO nobody reads is an error (ENXIO), not a hang.
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK, 0o644)
            guard descriptor >= 0 else {
                if errno == ENXIO {
                    // (ENXIO is also a device with nothing behind it: /dev/tty with no controlling terminal.)
                    throw Failure(path: path, reason: (info.st_mode & S_IFMT) == S_IFIFO ? "it is a FIFO nobody reads"
                                  : "it is a device with nothing behind it (\(String(cString: strerror(ENXIO))))")
                }
                throw failure()
            }
            let flags = fcntl(descriptor, F_GETFL)
            if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
            try writeAll(bytes, to: descriptor, removing: nil)
            guard close(descriptor) == 0 else { throw failure() }
            return
        }
        // A new file of a name no one can guess (mkstemp: O_EXCL, so no link
        // planted at the name is followed — a link at `path.partial-<pid>`, whose
        // pid a run shows, had the report written over what it named).
        var template = Array((path + ".partial-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        guard descriptor >= 0 else { throw failure() }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        _ = fchmod(descriptor, 0o644)
        try writeAll(bytes, to: descriptor, removing: temporary)
        guard fsync(descriptor) == 0 || errno == EINVAL else {
            let error = failure()
            close(descriptor)
            unlink(temporary)
            throw error
        }
        guard close(descriptor) == 0 else {
            let error = failure()
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let error = failure()
            unlink(temporary)
            throw error
        }
    }

    /// Writes all of `bytes`; on failure closes `descriptor`, removes `removing` and throws.
    private func writeAll(_ bytes: [UInt8], to descriptor: Int32, removing temporary: String?) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                POSIX.retryingInterrupts { systemWrite(descriptor, buffer.baseAddress.map { $0 + offset }, bytes.count - offset) }
            }
            guard written > 0 else {
                let error = failure()
                close(descriptor)
                if let temporary { unlink(temporary) }
                throw error
            }
            offset += written
        }
    }

    private func failure() -> Failure { Failure(path: path, reason: String(cString: strerror(errno))) }

    /// Where `path` leads, if it is a symbolic link: followed to the end, or
    /// for a link to nothing (yet), what it names. Nil for anything else.
    package static func linkTarget(of path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return nil }
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink(path, &buffer, buffer.count - 1)
        return length > 0 ? String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
    }

    /// The file a path names, to tell two paths of one file apart from two
    /// files: the device and inode when it exists, else its directory's
    /// real path and its name.
    package static func identity(of path: String) -> String {
        identity(of: path, links: 0)
    }

    private static func identity(of path: String, links: Int) -> String {
        var info = stat()
        if stat(path, &info) == 0 { return "inode \(info.st_dev):\(info.st_ino)" }
        // A link to a file not there yet is the file it names (two reports, one
        // through the link, one by its name, wrote the same file).
        if links < 40, lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            var buffer = [CChar](repeating: 0, count: 4097)
            let length = readlink(path, &buffer, 4096)
            if length > 0 {
                let target = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                let base = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
                return identity(of: target.hasPrefix("/") ? target : base + target, links: links + 1)
            }
        }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { path[..<$0].isEmpty ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard let real = realpath(directory, nil) else { return "path \(path)" }
        defer { free(real) }
        return "path \(String(cString: real))/\(name)"
    }
}

/// `write(2)`, named apart from `ReportFile.write(_:)`.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
