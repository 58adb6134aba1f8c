import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process on a pseudo-terminal of its own (its controlling
/// terminal, so Ctrl-C sends SIGINT), driven by typing and reading.
final class PseudoTerminal {
    let pid: pid_t
    let master: Int32
    private(set) var transcript = ""
    private var finished = false

    init(_ arguments: [String], in directory: URL, environment: [String: String] = [:],
         executable: String = CommandRunner.factoryhost) throws {
        // posix_openpt and friends are not in the Glibc module map: look them up.
        typealias OpenPT = @convention(c) (Int32) -> Int32
        typealias OnFD = @convention(c) (Int32) -> Int32
        typealias PTSName = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
        let handle = dlopen(nil, RTLD_NOW)
        guard let openpt = dlsym(handle, "posix_openpt"), let grant = dlsym(handle, "grantpt"),
              let unlock = dlsym(handle, "unlockpt"), let name = dlsym(handle, "ptsname") else {
            throw CocoaError(.featureUnsupported)
        }
        master = unsafeBitCast(openpt, to: OpenPT.self)(O_RDWR | O_NOCTTY)
        guard master >= 0, unsafeBitCast(grant, to: OnFD.self)(master) == 0, unsafeBitCast(unlock, to: OnFD.self)(master) == 0,
              let slaveName = unsafeBitCast(name, to: PTSName.self)(master) else {
            throw CocoaError(.featureUnsupported)
        }
        let slave = String(cString: slaveName)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        #if os(Linux)
        posix_spawnattr_setflags(&attributes, Int16(0x80))              // POSIX_SPAWN_SETSID: the terminal becomes its controlling one
        #else
        posix_spawnattr_setflags(&attributes, Int16(0x0400))
        #endif
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, slave, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        posix_spawn_file_actions_addclose(&actions, master)
        var env = ProcessInfo.processInfo.environment
        env["TERM"] = "xterm"
        env["LUA_INIT"] = nil
        env["LUA_INIT_5_4"] = nil
        if env["XDG_STATE_HOME"] == nil || environment["XDG_STATE_HOME"] == nil {
            env["XDG_STATE_HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("fh-state-\(UUID().uuidString)").path
        }
        for (key, value) in environment { env[key] = value }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { argv.forEach { free($0) }; envp.forEach { free($0) } }
        // The child starts in `directory` (changing this process's directory
        // raced with tests on other threads: a child started in another test's folder).
        typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
        guard let addChdir = dlsym(handle, "posix_spawn_file_actions_addchdir_np"),
              unsafeBitCast(addChdir, to: AddChdir.self)(&actions, directory.path) == 0 else {
            throw CocoaError(.featureUnsupported)
        }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard status == 0 else { throw CocoaError(.executableLoad) }
        pid = child
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
    }

    func type(_ text: String) {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
            if n > 0 { sent += n } else { Thread.sleep(forTimeInterval: 0.01) }
        }
        Thread.sleep(forTimeInterval: 0.15)              // let the line editor take it in
        drain()
    }

    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(master, &buffer, buffer.count)
            guard n > 0 else { return }
            transcript += String(decoding: buffer[..<n], as: UTF8.self)
        }
    }

    /// Waits (up to `seconds`) until the transcript after `after` contains `text`.
    func expect(_ text: String, after marker: String? = nil, seconds: Double = 10) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            drain()
            var haystack = Substring(transcript)
            if let marker, let range = transcript.range(of: marker, options: .backwards) { haystack = transcript[range.upperBound...] }
            if haystack.contains(text) { return }
            Thread.sleep(forTimeInterval: 0.02)
        }
        Issue.record("never saw \(text.debugDescription) in:\n\(transcript)")
        throw CocoaError(.userCancelled)
    }

    /// The exit status (128 + signal if killed), waiting up to 10 s.
    func waitForExit() -> Int32 {
        let deadline = Date().addingTimeInterval(10)
        var status: Int32 = 0
        while Date() < deadline {
            drain()
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid {
                finished = true
                let signal = status & 0x7f
                return signal != 0 ? 128 + signal : (status >> 8) & 0xff
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return -1
    }

    func finish() {
        if !finished {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            finished = true
        }
        close(master)
    }
}
