#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One worker process running one spec file (see ``TestOptions/workerCommand``):
/// started with its report pipe as file descriptor 3, read line by line,
/// and waited for. A worker that a hard stop ended (a test stuck in C code)
/// or that crashed is seen as the pipe closing without `done`.
final class WorkerProcess {
    private let pid: pid_t
    private let reports: UnsafeMutablePointer<FILE>

    /// The file descriptor a worker writes its reports to.
    static let reportDescriptor: Int32 = 3
    private static let spawnLock = SpawnLock()

    /// The exit status of a worker a hard stop ended (a test stuck in C).
    public static let hardStopStatus: Int32 = 124

    init(command: [String], arguments: [String]) throws(TestFailure) {
        var fds: [Int32] = [0, 0]
        // Pipe, close-on-exec and spawn under one lock: a worker another
        // thread starts meanwhile must not inherit this pipe (its reader
        // would then wait for that worker too). dup2 onto 3 gives the child its end.
        Self.spawnLock.lock()
        defer { Self.spawnLock.unlock() }
        let made = pipe(&fds) == 0
        if made { fds.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) } }
        guard made else {
            throw TestFailure(kind: .error, message: "cannot start a worker process: pipe: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], Self.reportDescriptor)
        let argv = (command + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, command[0], &actions, nil, argv, environ)
        close(fds[1])
        guard status == 0, let stream = fdopen(fds[0], "r") else {
            close(fds[0])
            throw TestFailure(kind: .error, message: "cannot start a worker process (\(command[0])): \(String(cString: strerror(status)))")
        }
        pid = child
        reports = stream
    }

    /// The next report line, or nil when the worker closed the pipe. (The
    /// length getline gives, not the first NUL: a line is what was written.)
    func nextLine() -> Substring? {
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        let length = getline(&buffer, &capacity, reports)
        guard length > 0, let buffer else { return nil }
        var count = length
        if buffer[count - 1] == 10 { count -= 1 }
        let bytes = UnsafeRawBufferPointer(start: buffer, count: count)
        return Substring(String(decoding: bytes, as: UTF8.self))
    }

    /// Waits for the worker to end: its exit status, or the signal that ended it.
    func wait() -> (status: Int32, signal: Int32?) {
        fclose(reports)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        return signal != 0 ? (-1, signal) : ((status >> 8) & 0xff, nil)
    }
}

/// The worker side: writes report lines to descriptor 3, flushing the
/// test's own output first, so what a test prints comes before its result.
public final class WorkerReportWriter {
    private let stream: UnsafeMutablePointer<FILE>?

    /// Takes descriptor 3, close-on-exec: a process a test starts must not
    /// hold the report pipe open. (If the runner dies, the next report ends
    /// this worker with SIGPIPE; a worker stuck in C is ended by its hard stop.)
    public init() {
        _ = fcntl(WorkerProcess.reportDescriptor, F_SETFD, FD_CLOEXEC)
        stream = fdopen(WorkerProcess.reportDescriptor, "w")
    }

    func write(_ line: String) {
        fflush(nil)
        guard let stream else { return }
        var bytes = Array(line.utf8)
        bytes.append(10)
        _ = fwrite(bytes, 1, bytes.count, stream)
        fflush(stream)
    }
}

/// A pthread mutex (worker spawns from several runner threads).
final class SpawnLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    init() { pthread_mutex_init(mutex, nil) }
    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
}

/// Flushes every output stream: the run's report so far, before a worker
/// writes its tests' output to the same place.
func flushOutput() { fflush(nil) }
