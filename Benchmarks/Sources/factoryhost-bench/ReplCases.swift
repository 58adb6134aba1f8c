import FactoryREPL
import FactoryScripting
import Foundation

/// `repl_start`: how long `factoryhost repl` takes to show its first prompt
/// on a terminal (a pseudo-terminal: libedit, history and all), against
/// `factoryhost run` of an empty script started the same way, until it has
/// exited (goal ≤ 1.5×).
func replStartCases() throws -> [CaseResult] {
    let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    let binary = ProcessInfo.processInfo.environment["FACTORYHOST_BIN"]
        ?? here.appendingPathComponent(".build/release/factoryhost").path
    guard FileManager.default.isExecutableFile(atPath: binary) else {
        FileHandle.standardError.write(Data("repl_start: no factoryhost binary at \(binary) (run Scripts/bench.sh)\n".utf8))
        return []
    }
    let empty = FileManager.default.temporaryDirectory.appendingPathComponent("factoryhost-bench-empty.lua")
    try Data().write(to: empty)
    let state = FileManager.default.temporaryDirectory.appendingPathComponent("factoryhost-bench-state").path
    let run = try terminalStart([binary, "run", empty.path], until: nil, state: state)
    let repl = try terminalStart([binary, "repl"], until: "> ", state: state)
    // Interleaved rounds, so the paired ratio holds however the machine drifts.
    for _ in 0..<3 { try run(); try repl() }
    var samples: [[Double]] = [[], []]
    for _ in 0..<11 {
        for (index, body) in [run, repl].enumerated() {
            let start = now()
            for _ in 0..<10 { try body() }
            samples[index].append(Double(now() - start) / 10)
        }
    }
    var result = CaseResult(name: "repl_start")
    result.add("run", median(samples[0]))
    result.add("repl", median(samples[1]))
    result.samples = ["run": samples[0], "repl": samples[1]]
    return [result]
}

/// Starts `argv` on a pseudo-terminal and waits until `marker` appears in its
/// output (then kills it), or until it exits (no marker).
func terminalStart(_ argv: [String], until marker: String?, state: String) throws -> () throws -> Void {
    typealias OpenPT = @convention(c) (Int32) -> Int32
    typealias OnFD = @convention(c) (Int32) -> Int32
    typealias PTSName = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
    let handle = dlopen(nil, RTLD_NOW)
    guard let openpt = dlsym(handle, "posix_openpt"), let grant = dlsym(handle, "grantpt"),
          let unlock = dlsym(handle, "unlockpt"), let name = dlsym(handle, "ptsname") else {
        throw NSError(domain: "pty", code: 1, userInfo: [NSLocalizedDescriptionKey: "no pseudo-terminals here"])
    }
    let markerBytes = marker.map { Array($0.utf8) }
    func once() throws {
        let master = unsafeBitCast(openpt, to: OpenPT.self)(O_RDWR | O_NOCTTY)
        guard master >= 0, unsafeBitCast(grant, to: OnFD.self)(master) == 0, unsafeBitCast(unlock, to: OnFD.self)(master) == 0,
              let slaveName = unsafeBitCast(name, to: PTSName.self)(master) else {
            throw NSError(domain: "pty", code: 2, userInfo: [NSLocalizedDescriptionKey: "cannot open a pseudo-terminal"])
        }
        defer { close(master) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, slaveName, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        posix_spawn_file_actions_addclose(&actions, master)
        let cArgs = argv.map { strdup($0) } + [nil]
        let env = (ProcessInfo.processInfo.environment.merging(["TERM": "xterm", "XDG_STATE_HOME": state]) { $1 })
            .map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { cArgs.forEach { free($0) }; env.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, argv[0], &actions, nil, cArgs, env) == 0 else {
            throw NSError(domain: "spawn", code: 1, userInfo: [NSLocalizedDescriptionKey: "cannot run \(argv[0])"])
        }
        var seen: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        if let markerBytes {
            while true {
                let n = read(master, &buffer, buffer.count)
                if n <= 0 { break }
                seen += buffer[..<n]
                if seen.count >= markerBytes.count,
                   seen.indices.dropLast(markerBytes.count - 1).contains(where: { seen[$0..<($0 + markerBytes.count)].elementsEqual(markerBytes) }) {
                    break
                }
            }
            kill(pid, SIGKILL)
        }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
    return once
}

/// `completion10k`: one Tab completion of a registration key (`resolve "Logger#r12`)
/// in a session whose configuration has 10,000 registrations (goal: under 20 ms).
func completionCases() throws -> [CaseResult] {
    let script = FileManager.default.temporaryDirectory.appendingPathComponent("factoryhost-bench-10k.lua")
    try Data(generatedScript(10_000).utf8).write(to: script)
    var settings = REPLSession.Settings { try FactoryHost(plugins: [BenchPlugin()]) }
    settings.script = script.path
    settings.configuration = "app"
    let session = try REPLSession(settings: settings)
    var samples: [Double] = []
    var found = 0
    for _ in 0..<15 {
        let start = now()
        found = session.completions(for: "local x = resolve \"Logger#r12").candidates.count
        samples.append(Double(now() - start))
    }
    precondition(found == 111, "expected Logger#r12, #r120…#r129, #r1200…#r1299: got \(found)")
    var result = CaseResult(name: "completion10k")
    result.add("factoryhost", median(samples))
    return [result]
}
