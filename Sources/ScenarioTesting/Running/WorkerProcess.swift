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

    init(command: [String], arguments: [String]) throws(TestFailure) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            throw TestFailure(kind: .error, message: "cannot start a worker process: pipe: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_adddup2(&actions, fds[1], Self.reportDescriptor)
        if fds[1] != Self.reportDescriptor { posix_spawn_file_actions_addclose(&actions, fds[1]) }
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

    /// The next report line, or nil when the worker closed the pipe.
    func nextLine() -> Substring? {
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        let length = getline(&buffer, &capacity, reports)
        guard length > 0, let buffer else { return nil }
        var line = String(cString: buffer)
        if line.hasSuffix("\n") { line.removeLast() }
        return Substring(line)
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

    public init() { stream = fdopen(WorkerProcess.reportDescriptor, "w") }

    func write(_ line: String) {
        fflush(nil)
        guard let stream else { return }
        fputs(line + "\n", stream)
        fflush(stream)
    }
}
