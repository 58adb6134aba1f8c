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

    /// Puts a stand-in on each standard stream (0, 1, 2) that is closed, so
    /// that no descriptor opened later lands there: with standard input
    /// closed, the memory watchdog's `/proc/self/statm` became descriptor 0
    /// and `run -` read it as the script. The stand-in fails a read or a
    /// write as a closed descriptor does (`EBADF`): `/dev/null` opened
    /// write-only for input, read-only for output.
    ///
    /// ```swift
    /// POSIX.reserveStandardDescriptors()      // first thing in main
    /// ```
    package static func reserveStandardDescriptors() {
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            // The lowest free descriptor: this one (those below it are open, or were just reserved).
            let standIn = open("/dev/null", descriptor == 0 ? O_WRONLY : O_RDONLY)
            if standIn >= 0 && standIn != descriptor {
                _ = dup2(standIn, descriptor)
                close(standIn)
            }
        }
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
