import FactoryRegistry
import FactoryScripting
import FactoryhostSupport
import LuaBridge
import ScenarioTesting

/// What `check` and `graph` share: a host in dry-run mode, the script run
/// only to collect its declarations — without side effects, under a time
/// limit, its printing kept out of the report.
struct DryDeclaration {
    let host: FactoryHost
    let run: DeclarationRun

    /// Runs `script` (`-`: standard input) with `arguments` in a dry-run host.
    /// Throws only if no host could be made.
    init(script: String, arguments: [String], pluginPaths: [String], values: ValueOptions = .given(files: [], assignments: []),
         timeLimit: Duration) throws {
        var setup = HostSetup(pluginPaths: pluginPaths)
        setup.timeLimit = timeLimit
        values.apply(to: &setup)
        // A script on standard input is read first: a plugin that reads
        // standard input must not take it (check would then say ok of nothing).
        // The reading counts against the limit, as the rest does — unless a
        // person is typing it at a terminal.
        var left = timeLimit
        var source: [UInt8]?
        if script == "-" {
            let started = ContinuousClock.now
            source = try Self.readStandardInput(within: isatty(0) != 0 ? nil : timeLimit)
            // What is left, in whole milliseconds (the limit's message shows it).
            let spent = ContinuousClock.now - started
            let milliseconds = spent.components.seconds * 1000 + spent.components.attoseconds / 1_000_000_000_000_000
            left = max(timeLimit - .milliseconds(milliseconds), .milliseconds(1))
        }
        let host = try Self.dryHost(setup, timeLimit: left)
        // Never released: releasing the host closes its state, which runs the
        // script's finalizers (see `finish`) — and costs time for nothing.
        _ = Unmanaged.passRetained(host)
        self.host = host
        run = Self.withStandardOutputDiscarded {
            host.declare(file: script, source: source, arguments: arguments, timeLimit: timeLimit,
                         asSpec: SpecDiscovery.isSpecFile(script))
        }
        // What the report reads (configurations, types) includes the Swift
        // plugins', though a script that never used the DSL did not install them.
        try Self.withStandardOutputDiscarded { try host.installPendingPlugins() }
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
                lua.hardStop = .exitProcess(grace: .seconds(1), prefix: "\(ProgramName.current): ")
            }
        }
    }

    /// All of standard input, if it ends within `limit` (nil: however long it takes).
    static func readStandardInput(within limit: Duration?) throws -> [UInt8] {
        let deadline = limit.map { ContinuousClock.now + $0 }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let deadline, let limit {
                let left = deadline - ContinuousClock.now
                let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
                guard milliseconds > 0 else { throw StandardInputTimeout(limit: limit) }
                var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
                let ready = poll(&descriptor, 1, Int32(clamping: milliseconds))
                if ready < 0 && errno == EINTR { continue }
                if ready == 0 { continue }              // the deadline is checked above
            }
            let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += buffer[..<count]
                if bytes.count > FactoryHost.streamedSourceLimit {
                    throw LuaError(.file, "standard input gave more than \(FactoryHost.streamedSourceLimit >> 20) MB without ending: "
                                   + "a script is read whole, and reading stopped")
                }
                continue
            }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
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

/// The script on standard input did not end within the command's time limit.
struct StandardInputTimeout: Error, CustomStringConvertible {
    let limit: Duration
    var description: String {
        let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
        return "time limit exceeded (\(seconds) seconds) reading the script from standard input"
    }
}
