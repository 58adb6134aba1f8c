/// The few POSIX chores every layer needs, written once: a system call
/// retried while a signal interrupts it, and `mkdir -p`.
///
/// ```swift
/// let count = POSIX.retryingInterrupts { read(descriptor, &buffer, buffer.count) }
/// try POSIX.makeParentDirectories(of: "reports/unit/junit.xml", mode: 0o755)   // reports/, reports/unit/
/// ```
package enum POSIX {
    /// `call()` again while it fails with `EINTR` (a signal arrived while
    /// it waited): its first result that is not such a failure.
    @inlinable
    package static func retryingInterrupts<Result: BinaryInteger>(_ call: () -> Result) -> Result {
        var result = call()
        while result < 0 && errno == EINTR { result = call() }
        return result
    }

    /// A directory that could not be made: its path and the system's reason.
    package struct DirectoryFailure: Error, CustomStringConvertible {
        package let path: String
        package let reason: String
        package var description: String { "cannot make \(path): \(reason)" }
    }

    /// Makes each directory above the file at `path` that does not exist yet,
    /// from the top (`a/b/c.lua`: `a`, then `a/b`), with `mode`.
    ///
    /// - Throws: ``DirectoryFailure`` for the first that could not be made
    ///   (one that exists, as a directory or not, is left to the caller's open).
    package static func makeParentDirectories(of path: String, mode: mode_t) throws(DirectoryFailure) {
        for slash in path.indices where path[slash] == "/" && slash != path.startIndex {
            let directory = String(path[..<slash])
            if mkdir(directory, mode) != 0 && errno != EEXIST {
                throw DirectoryFailure(path: directory, reason: String(cString: strerror(errno)))
            }
        }
    }
}
