import CLuaShim
import FactoryhostSupport
import LuaBridge
import LuaInterpreter

/// One worker process running one spec file (see ``TestOptions/workerCommand``):
/// started with its report pipe as file descriptor 3, read line by line,
/// and waited for. A worker that a hard stop ended (a test stuck in C code)
/// or that crashed is seen as the pipe closing without `done`.
///
/// The worker's standard output and error go to an unlinked temporary
/// file, not to the run's: what its tests print is read back test by test
/// (``takeOutput()``) and reported with the test that printed it, so it is
/// never interleaved with the report (TAP stays TAP, `-j` workers never mix).
final class WorkerProcess {
    let pid: pid_t
    /// The read end of the report pipe, and what was read of it but not yet returned.
    private let reports: Int32
    private var pending: [UInt8] = []
    /// Where the next line starts in `pending` (what is before it was taken).
    private var lineStart = 0
    /// What each read fills (one buffer for the worker's life, not 64 KB made per read).
    private var readBuffer = [UInt8](repeating: 0, count: 65536)
    /// How much of `pending` from `lineStart` holds no newline (searched already).
    private var scanned = 0
    private var ended = false
    /// The worker's standard output, and how far the runner has read it.
    private let output: UnsafeMutablePointer<FILE>?
    private var outputRead: off_t = 0

    /// The most of a test's output kept (the rest is counted, not shown).
    static let outputLimit = 64 * 1024

    /// The file descriptor a worker writes its reports to.
    static let reportDescriptor: Int32 = 3
    private static let spawnLock = Lock()              // worker spawns from several runner threads

    /// The exit status of a worker a hard stop ended (a test stuck in C).
    public static let hardStopStatus: Int32 = 124
    /// The status a worker exits with when, its tests done, closing the
    /// file's Lua state ran a finalizer past the time limit.
    public static let closingStopStatus: Int32 = 125
    /// The status a worker exits with when, its tests done, a finalizer
    /// called `os.exit` as the file's Lua state closed (Lua swallows a
    /// finalizer's error there: the run was green).
    public static let closingExitStatus: Int32 = 123

    /// The secret every report line of this worker starts with: a test
    /// running in the worker can write to its report pipe (through
    /// /proc/self/fd, say), but cannot know this, so it cannot forge a report.
    private let token: String

    /// The file descriptor the worker reads its token from (then closes).
    static let tokenDescriptor: Int32 = 4

    init(command: [String], arguments: [String]) throws(TestFailure) {
        var generator = SystemRandomNumberGenerator()
        token = (0..<4).map { _ in String(generator.next() as UInt32, radix: 16) }.joined(separator: "-")
        var fds: [Int32] = [0, 0]
        var tokenPipe: [Int32] = [-1, -1]
        // Pipe, close-on-exec and spawn under one lock: a worker another
        // thread starts meanwhile must not inherit this pipe (its reader
        // would then wait for that worker too). dup2 onto 3 gives the child its end.
        Self.spawnLock.lock()
        defer { Self.spawnLock.unlock() }
        let made = pipe(&fds) == 0 && pipe(&tokenPipe) == 0
        if made { (fds + tokenPipe).forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) } }
        defer { tokenPipe.filter { $0 >= 0 }.forEach { close($0) } }
        guard made else {
            throw TestFailure(kind: .error, message: "cannot start a worker process: pipe: \(String(cString: strerror(errno)))")
        }
        let captured = tmpfile()
        if let captured { _ = fcntl(fileno(captured), F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], Self.reportDescriptor)
        posix_spawn_file_actions_adddup2(&actions, tokenPipe[0], Self.tokenDescriptor)
        if let captured {
            // Standard output and error both: what a test (or a process it starts) writes to either
            // is its output, and never lands in the run's own streams (a TAP stream, a CI log).
            posix_spawn_file_actions_adddup2(&actions, fileno(captured), 1)
            posix_spawn_file_actions_adddup2(&actions, fileno(captured), 2)
        }
        let argv = (command + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // A process group of its own: what its tests start stays in it (unless
        // it leaves), so the whole group can be ended at once (see `wait`).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var child: pid_t = 0
        let status = posix_spawn(&child, command[0], &actions, &attributes, argv, environ)
        close(fds[1])
        guard status == 0 else {
            close(fds[0])
            if let captured { fclose(captured) }
            throw TestFailure(kind: .error, message: "cannot start a worker process (\(command[0])): \(String(cString: strerror(status)))")
        }
        pid = child
        reports = fds[0]
        output = captured
        let secret = Array((token + "\n").utf8)
        _ = secret.withUnsafeBytes { write(tokenPipe[1], $0.baseAddress, $0.count) }
    }

    deinit {
        if let output { fclose(output) }
    }

    /// How often, in milliseconds, a quiet report pipe lets ``trimOutput()`` run.
    private static let trimInterval: Int32 = 100

    /// What was printed past the ``outputLimit`` bytes a report shows is
    /// given back to the file system (a hole punched in the captured
    /// file; its size, what the report counts, stays): a test running
    /// `cat /dev/zero` filled /tmp with a gigabyte a second. The last
    /// megabyte is kept, in case a report line about to be read ended the
    /// test and the next one has started printing.
    private func trimOutput() {
        guard let output else { return }
        let descriptor = fileno(output)
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return }
        let start = outputRead + off_t(Self.outputLimit), end = info.st_size - (1 << 20)
        guard end - max(start, trimmedTo) > (4 << 20) else { return }        // worth a system call
        let from = max(start, trimmedTo)
        if fh_punch_hole(descriptor, Int64(from), Int64(end - from)) == 0 { trimmedTo = end }
    }

    /// Where the captured output has been trimmed to.
    private var trimmedTo: off_t = 0

    /// What the worker printed since the last call, up to `mark` (its
    /// latest `mark` report) or to the end: at most
    /// ``outputLimit`` bytes of it, then a line saying how much more there was.
    /// (The worker flushes its output before each report line, so all a
    /// test printed is here when its result is.)
    func takeOutput(upTo mark: Int64? = nil) -> String {
        guard let output else { return "" }
        let descriptor = fileno(output)
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return "" }
        let end = mark.map { min(off_t($0), info.st_size) } ?? info.st_size
        guard end > outputRead else { return "" }
        let available = Int(end - outputRead)
        var bytes = [UInt8](repeating: 0, count: min(available, Self.outputLimit))
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, outputRead) }
        outputRead = end
        guard count > 0 else { return "" }
        // Bytes that are not UTF-8 as \xNN, as names and messages show them (decoded, a byte 0xFF
        // and a real U+FFFD printed the same).
        var text = LuaString(bytes: Array(bytes[..<count])).shown
        if available > count { text += (text.hasSuffix("\n") ? "" : "\n") + "… (\(available - count) more bytes not shown)\n" }
        return text
    }

    /// The next report line, or nil when the worker closed the pipe. (The
    /// length getline gives, not the first NUL: a line is what was written.)
    ///
    /// A line that does not start with the worker's token was not written by
    /// the worker's runner: it comes back as `"forged"` (no protocol event).
    func nextLine(within seconds: Double? = nil) -> Substring? {
        guard let bytes = readLine(within: seconds) else { return nil }
        let line = String(decoding: bytes, as: UTF8.self)
        guard line.hasPrefix(token + "\t") else { return "forged" }
        return Substring(line.dropFirst(token.count + 1))
    }

    /// Whether the last ``nextLine(within:)`` gave up because nothing came in time.
    private(set) var timedOut = false

    /// The longest report line kept: the runner writes none near it (its
    /// messages are bounded; a test's name may be long). A longer one is
    /// not the protocol's — a test writing a gigabyte to the report pipe
    /// made the runner hold it all, and abort when memory ran out.
    static let longestLine = 64 << 20

    /// Whether the last ``nextLine(within:)`` was cut at ``longestLine``.
    private(set) var wasOverlong = false

    /// The next line's bytes (without the newline), or nil at the end of the
    /// pipe or when `seconds` pass with no complete line.
    private func readLine(within seconds: Double?) -> [UInt8]? {
        timedOut = false
        wasOverlong = false
        let deadline = seconds.map { ContinuousClock.now + .milliseconds(Int64(max(0, $0) * 1000)) }
        while true {
            // (Searched from where the last search ended: a long line arrives in many reads.
            // Lines taken are skipped, not removed one by one: a read holds many.)
            if let newline = Self.newline(in: pending, from: lineStart + scanned) {
                let line = Array(pending[lineStart..<newline])
                lineStart = newline + 1
                scanned = 0
                if lineStart == pending.count {
                    pending.removeAll(keepingCapacity: true)
                    lineStart = 0
                }
                return line
            }
            scanned = pending.count - lineStart
            if ended { return nil }
            var wait = Self.trimInterval
            if let deadline {
                let left = deadline - ContinuousClock.now
                if left <= .zero { timedOut = true; return nil }
                wait = min(wait, Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1))
            }
            var descriptor = pollfd(fd: reports, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, wait)
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 {                            // the deadline is checked above
                trimOutput()
                continue
            }
            let count = POSIX.retryingInterrupts { readBuffer.withUnsafeMutableBytes { read(reports, $0.baseAddress, $0.count) } }
            if count <= 0 {
                ended = true
                if lineStart < pending.count {         // a last line without its newline
                    let line = Array(pending[lineStart...])
                    pending = []
                    lineStart = 0
                    scanned = 0
                    return line
                }
                return nil
            }
            if lineStart > 0 {                         // what was taken goes before more comes
                pending.removeSubrange(..<lineStart)
                lineStart = 0
            }
            pending += readBuffer[..<count]
            if pending.count > Self.longestLine {
                wasOverlong = true
                pending = []
                scanned = 0
                return []
            }
        }
    }

    /// The index of the first newline in `bytes` from `start` (memchr: a
    /// 64 MiB line is searched in milliseconds, also in a debug build).
    private static func newline(in bytes: [UInt8], from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress, let found = memchr(base + start, 10, buffer.count - start) else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// Ends a worker that stopped responding.
    func end() { _ = kill(pid, SIGKILL) }

    /// Waits for the worker to end: its exit status, or the signal that ended
    /// it. Past `seconds` (a worker stopped with SIGSTOP, or stuck where no
    /// limit reaches) it is killed, and `overdue` says so: the runner never
    /// waits on a worker without end.
    func wait(within seconds: Double? = nil) -> (status: Int32, signal: Int32?, overdue: Bool) {
        close(reports)
        var status: Int32 = 0
        var overdue = false
        if let seconds {
            let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, seconds) * 1000))
            while true {
                let ended = waitpid(pid, &status, WNOHANG)
                if ended == pid { break }
                if ended < 0 && errno != EINTR { break }
                if ContinuousClock.now >= deadline {
                    overdue = true
                    _ = kill(pid, SIGKILL)
                    _ = POSIX.retryingInterrupts { waitpid(pid, &status, 0) }
                    break
                }
                usleep(10_000)
            }
        } else {
            _ = POSIX.retryingInterrupts { waitpid(pid, &status, 0) }
        }
        // What its tests left behind in its process group ends with it — also a
        // process that forks itself and exits without end, which no walk catches.
        _ = kill(-pid, SIGKILL)
        let signal = status & 0x7f
        return signal != 0 ? (-1, signal, overdue) : ((status >> 8) & 0xff, nil, overdue)
    }
}

/// The worker side: writes report lines to descriptor 3, flushing the
/// test's own output first, so what a test prints comes before its result.
public final class WorkerReportWriter {
    private let stream: UnsafeMutablePointer<FILE>?

    /// Takes descriptor 3, close-on-exec: a process a test starts must not
    /// hold the report pipe open. (If the runner dies, the next report ends
    /// this worker with SIGPIPE; a worker stuck in C is ended by its hard stop.)
    private let token: String

    /// A writer on descriptor 3 (the report pipe the runner opened for this worker).
    public init() {
        // Standard output line by line: its lines and standard error's (unbuffered)
        // reach the captured output in the order they were written.
        lineBufferStandardOutput()
        _ = fcntl(WorkerProcess.reportDescriptor, F_SETFD, FD_CLOEXEC)
        stream = fdopen(WorkerProcess.reportDescriptor, "w")
        // The token: read once from its pipe, which is then closed (kept only here).
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count < 128, read(WorkerProcess.tokenDescriptor, &byte, 1) == 1, byte != 10 { bytes.append(byte) }
        close(WorkerProcess.tokenDescriptor)
        token = String(decoding: bytes, as: UTF8.self)
    }

    func write(_ line: String) {
        fflush(nil)
        guard let stream else { return }
        let printed = lseek(1, 0, SEEK_CUR)          // standard output is the runner's file (seekable)
        let lines = (printed >= 0 ? [WorkerProtocol.mark(Int64(printed))] : []) + [line]
        var bytes = Array(lines.map { token + "\t" + $0 }.joined(separator: "\n").utf8)
        bytes.append(10)
        _ = fwrite(bytes, 1, bytes.count, stream)
        fflush(stream)
    }
}

/// Flushes every output stream: the run's report so far, before a worker
/// writes its tests' output to the same place.
func flushOutput() { fflush(nil) }

