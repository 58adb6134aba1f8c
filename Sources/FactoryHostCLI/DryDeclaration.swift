import FactoryRegistry
import FactoryScripting
import LuaBridge
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What `check` and `graph` share: a host in dry-run mode, the script run
/// only to collect its declarations — without side effects, under a time
/// limit, its printing kept out of the report.
struct DryDeclaration {
    let host: FactoryHost
    let run: DeclarationRun

    /// Runs `script` (`-`: standard input) with `arguments` in a dry-run host.
    /// Throws only if no host could be made.
    init(script: String, arguments: [String], pluginPaths: [String], values: ValueOptions = ValueOptions(),
         timeLimit: Duration) throws {
        var setup = HostSetup(pluginPaths: pluginPaths)
        values.apply(to: &setup)
        // A script on standard input is read first: a plugin that reads
        // standard input must not take it (check would then say ok of nothing).
        let source = script == "-" ? Self.readStandardInput() : nil
        let host = try Self.dryHost(setup, timeLimit: timeLimit)
        // Never released: releasing the host closes its state, which runs the
        // script's finalizers (see `finish`) — and costs time for nothing.
        _ = Unmanaged.passRetained(host)
        self.host = host
        run = Self.withStandardOutputDiscarded {
            host.declare(file: script, source: source, arguments: arguments, timeLimit: timeLimit)
        }
    }

    /// A dry-run host of `setup`'s plugins, made within `timeLimit`: the Lua
    /// plugins' manifests and init.lua run without side effects, share the
    /// command's deadline with the script, are hard-stopped a second after
    /// it where Lua cannot stop them (a long C call, a looping finalizer),
    /// and print nothing into the report.
    static func dryHost(_ setup: HostSetup, timeLimit: Duration) throws -> FactoryHost {
        try withStandardOutputDiscarded {
            try setup.makeHost(dryRun: true) { lua in
                lua.setDeadline(after: timeLimit)
                lua.hardStop = .exitProcess(grace: .seconds(1), prefix: "factoryhost: ")
            }
        }
    }

    /// All of standard input.
    static func readStandardInput() -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count > 0 { bytes += buffer[..<count]; continue }
            if count < 0 && errno == EINTR { continue }
            return bytes
        }
    }

    /// Ends the process with `status` once the report is written, without
    /// closing the host: closing would run the script's finalizers, which
    /// could print into the report, exit with another status, or loop.
    /// A report that could not be written (a full disk, a closed pipe's
    /// reader gone) is an error, not a success.
    static func finish(_ status: Int32) -> Never {
        exit(StandardOutput.flushed(status))
    }

    /// Runs `body` with standard output going nowhere: what the script prints
    /// must not mix into the report (a JSON document, say).
    static func withStandardOutputDiscarded<T>(_ body: () throws -> T) rethrows -> T {
        fflush(nil)
        let saved = dup(1)
        let null = open("/dev/null", O_WRONLY)
        if saved >= 0 && null >= 0 { dup2(null, 1) }
        if null >= 0 { close(null) }
        defer {
            fflush(nil)
            if saved >= 0 {
                dup2(saved, 1)
                close(saved)
            }
        }
        return try body()
    }

    /// One line saying where the run stopped, when that is worth knowing
    /// (not the usual stop at the first container).
    var stopNote: String? {
        guard let stop = run.stop, stop.reason != .container else { return nil }
        let place = stop.origin.map { "\($0): " } ?? ""
        switch stop.reason {
        case .timeLimit: return "the script ran out of time at \(place)\(stop.message); every declaration was reached before"
        default: return "check stopped at \(place)\(stop.message); every declaration was reached before"
        }
    }
}
