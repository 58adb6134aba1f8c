import Foundation
import Testing

/// Runs a program the way a user does: arguments, standard input, exit
/// status, and what it printed on each stream.
struct ProcessResult: Equatable, CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String
    /// Ended by a signal (a trap, a crash, or the runner's kill after its time).
    var signalled = false
    /// Wall-clock seconds it ran.
    var seconds = 0.0

    static func == (a: ProcessResult, b: ProcessResult) -> Bool {
        a.status == b.status && a.stdout == b.stdout && a.stderr == b.stderr && a.signalled == b.signalled
    }

    var description: String {
        "status \(status)\(signalled ? " (signal)" : "") after \(seconds) s\n--- stdout\n\(stdout)--- stderr\n\(stderr)"
    }
}

enum CommandRunner {
    /// The package's root folder.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let fixtures = packageRoot.appendingPathComponent("Tests/EndToEndTests/Fixtures")

    /// The built `factoryhost`: $FACTORYHOST_BIN, else beside the test bundle.
    static let factoryhost: String = {
        if let explicit = ProcessInfo.processInfo.environment["FACTORYHOST_BIN"] { return explicit }
        var candidates: [URL] = []
        if let executable = Bundle.main.executableURL { candidates.append(executable.deletingLastPathComponent()) }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        candidates.append(packageRoot.appendingPathComponent(".build/debug"))
        for dir in candidates {
            let path = dir.appendingPathComponent("factoryhost").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return packageRoot.appendingPathComponent(".build/debug/factoryhost").path
    }()

    /// The custom host built from Examples/custom-host, beside `factoryhost`.
    static let customHost: String = URL(fileURLWithPath: factoryhost).deletingLastPathComponent()
        .appendingPathComponent("custom-host-example").path

    /// The stock interpreter to compare with (`lua5.4`, else `lua`), if installed.
    static let stockLua: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in ["lua5.4", "lua"] {
            for dir in path.split(separator: ":") {
                let candidate = "\(dir)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }()

    /// Runs `executable` with `arguments` in `directory`, feeding `input`.
    /// Past `killAfter` seconds (default 120) the process is killed (SIGKILL)
    /// and the result says it was signalled: a hang fails its test instead
    /// of hanging the suite.
    static func run(_ executable: String, _ arguments: [String], in directory: URL? = nil,
                    input: String = "", environment: [String: String]? = nil,
                    killAfter: Double = 120) throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var env = ProcessInfo.processInfo.environment
        env["LUA_INIT"] = nil
        env["LUA_INIT_5_4"] = nil
        for (k, v) in environment ?? [:] { env[k] = v }
        process.environment = env
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("fh-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let inURL = scratch.appendingPathComponent("in"), outURL = scratch.appendingPathComponent("out"),
            errURL = scratch.appendingPathComponent("err")
        try Data(input.utf8).write(to: inURL)
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let stdin = try FileHandle(forReadingFrom: inURL)
        let stdout = try FileHandle(forWritingTo: outURL)
        let stderr = try FileHandle(forWritingTo: errURL)
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        let started = Date()
        try process.run()
        while process.isRunning {
            if Date().timeIntervalSince(started) > killAfter {
                kill(process.processIdentifier, SIGKILL)     // SIGTERM may be blocked in the child
                break
            }
            usleep(5_000)
        }
        process.waitUntilExit()
        try stdin.close(); try stdout.close(); try stderr.close()
        return ProcessResult(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self),
            signalled: process.terminationReason == .uncaughtSignal,
            seconds: Date().timeIntervalSince(started))
    }

    /// `factoryhost <arguments>`.
    static func factoryhost(_ arguments: [String], in directory: URL? = nil, input: String = "",
                            environment: [String: String]? = nil, killAfter: Double = 120) throws -> ProcessResult {
        try run(factoryhost, arguments, in: directory, input: input, environment: environment, killAfter: killAfter)
    }

    /// A new folder under the temporary directory holding `files` (name → text;
    /// a name may have folders, `plugins/p/init.lua`); the caller removes it.
    static func scratchDirectory(_ files: [String: String], prefix: String = "fh") throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in files {
            let file = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        return dir
    }
}
