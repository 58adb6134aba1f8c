import Foundation

// Cases that time whole commands, as a user runs them: the start-up of each
// command against lua5.4, the test runner against busted, a CPU-bound spec
// under `test` against the same code under `run`, and allocation-heavy Lua
// against lua5.4 in instructions (callgrind). Every contender of a case is
// spawned in turn, round after round, so the paired ratios hold however the
// machine drifts.

/// The release factoryhost the README installs (`Scripts/build.sh`, which
/// `Scripts/bench.sh` passes as $FACTORYHOST_BIN).
func factoryhostBinary(for caseName: String) -> String? {
    let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    let binary = ProcessInfo.processInfo.environment["FACTORYHOST_BIN"]
        ?? here.appendingPathComponent(".build/release/factoryhost").path
    guard FileManager.default.isExecutableFile(atPath: binary) else {
        FileHandle.standardError.write(Data("\(caseName): no factoryhost binary at \(binary) (run Scripts/bench.sh)\n".utf8))
        return nil
    }
    return binary
}

func executable(_ candidates: [String]) -> String? {
    candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
}

let lua54 = executable(["/usr/bin/lua5.4", "/opt/homebrew/bin/lua5.4", "/usr/local/bin/lua5.4"])
let busted = executable(["/usr/bin/busted", "/usr/local/bin/busted", "/opt/homebrew/bin/busted"])

/// Spawns `argv` (stdin and stdout from/to /dev/null) in `directory` and
/// waits; throws if it cannot start or exits with a status other than
/// `expected`. Returns the child's `ru_maxrss` in bytes, which is at least
/// this process's own resident size (see ``timeAndPeakMemory(_:)``).
@discardableResult
func spawnAndWait(_ argv: [String], in directory: String? = nil, expected: Int32 = 0) throws -> Double {
    var pid: pid_t = 0
    let cArgs = argv.map { strdup($0) } + [nil]
    defer { cArgs.forEach { free($0) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    let previous = FileManager.default.currentDirectoryPath
    if let directory { _ = FileManager.default.changeCurrentDirectoryPath(directory) }   // the child starts there
    defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
    guard posix_spawn(&pid, argv[0], &actions, nil, cArgs, environ) == 0 else {
        throw NSError(domain: "spawn", code: 1, userInfo: [NSLocalizedDescriptionKey: "cannot run \(argv[0])"])
    }
    var status: Int32 = 0
    var usage = rusage()
    wait4(pid, &status, 0, &usage)
    let exited = (status & 0x7f) == 0, code = (status >> 8) & 0xff
    guard exited && code == expected else {
        throw NSError(domain: "spawn", code: 2, userInfo: [NSLocalizedDescriptionKey:
            "\(argv.joined(separator: " ")) ended with status \(status) (expected exit \(expected))"])
    }
    return Double(usage.ru_maxrss) * 1024
}

/// Each contender's ns per run, `rounds` rounds of `perRound` runs each, in turn.
func spawnInterleaved(_ name: String, _ contenders: [(String, [String])], in directory: String? = nil,
                      rounds: Int = 11, perRound: Int = 1, warmup: Int = 1) throws -> CaseResult {
    for _ in 0..<warmup { for (_, argv) in contenders { try spawnAndWait(argv, in: directory) } }
    var samples = [[Double]](repeating: [], count: contenders.count)
    for _ in 0..<rounds {
        for (index, (_, argv)) in contenders.enumerated() {
            let start = now()
            for _ in 0..<perRound { try spawnAndWait(argv, in: directory) }
            samples[index].append(Double(now() - start) / Double(perRound))
        }
    }
    var result = CaseResult(name: name)
    for (index, (contender, _)) in contenders.enumerated() {
        result.add(contender, median(samples[index]))
        result.samples[contender] = samples[index]
    }
    return result
}

func scratchDirectory(_ name: String) throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("factoryhost-bench-\(name)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory.path
}

func write(_ text: String, to directory: String, _ file: String) throws -> String {
    let path = directory + "/" + file
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
}

// MARK: - Start-up

/// A small configuration as the examples write them: two configurations,
/// eight registrations, a scope, one resolve — the performance guard's
/// `Benchmarks/Guard/dsl.lua`, one script for both (read from the package).
let startupDSLScript: String = {
    let guardScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Guard/dsl.lua")
    return (try? String(contentsOf: guardScript, encoding: .utf8)) ?? "error('Benchmarks/Guard/dsl.lua is missing')"
}()

/// `startup_run`, `startup_dsl`, `startup_check`, `startup_graph`: one
/// command each, against lua5.4 running a one-line script (goal ≤ 3×).
func startupCases() throws -> [CaseResult] {
    guard let binary = factoryhostBinary(for: "startup"), let lua54 else { return [] }
    let directory = try scratchDirectory("startup")
    let one = try write("local x = 1\n", to: directory, "one.lua")
    let dsl = try write(startupDSLScript, to: directory, "dsl.lua")
    var results: [CaseResult] = []
    for (name, argv) in [("startup_run", [binary, "run", one]), ("startup_dsl", [binary, "run", dsl]),
                         ("startup_check", [binary, "check", dsl]), ("startup_graph", [binary, "graph", "--config", "app", dsl])] {
        results.append(try spawnInterleaved(name, [("lua5.4", [lua54, one]), ("factoryhost", argv)],
                                            rounds: 15, perRound: 10, warmup: 5))
    }
    return results
}

// MARK: - The test runner

/// A spec file of `count` trivial tests, optionally after a top level that
/// builds a fixture of a million objects (busted runs the same file).
func generatedSpec(tests count: Int, fixture: Bool) -> String {
    var lines: [String] = []
    if fixture { lines.append("local fixture = {} for i = 1, 1000000 do fixture[i] = { id = i } end") }
    lines.append("describe(\"generated\", function()")
    for i in 1...count {
        lines.append(fixture
            ? "  it(\"test \(i)\", function() assert(fixture[\(i)].id == \(i)) end)"
            : "  it(\"test \(i)\", function() assert(1 + 1 == 2) end)")
    }
    lines.append("end)")
    return lines.joined(separator: "\n") + "\n"
}

/// `tests500`, `tests4000`, `fixture1m`: one spec file run by busted and by
/// `factoryhost test` (goal: at most busted's time, and a per-test cost
/// that does not grow with the number of tests or the file's heap).
func runnerCases() throws -> [CaseResult] {
    guard let binary = factoryhostBinary(for: "runner") else { return [] }
    guard let busted else {
        FileHandle.standardError.write(Data("runner: busted is not installed (apt-get install lua-busted); skipping\n".utf8))
        return []
    }
    let directory = try scratchDirectory("runner")
    var results: [CaseResult] = []
    for (name, count, fixture, rounds) in [("tests500", 500, false, 11), ("tests4000", 4000, false, 5), ("fixture1m", 100, true, 7)] {
        let spec = try write(generatedSpec(tests: count, fixture: fixture), to: directory, "\(name)_spec.lua")
        results.append(try spawnInterleaved(name, [("busted", [busted, spec]), ("factoryhost", [binary, "test", spec])],
                                            in: directory, rounds: rounds))
    }
    return results
}

/// `spec_cpu`: fib(32) in a test under `factoryhost test` (with its per-test
/// time limit armed) against the same code under `factoryhost run`: a limit
/// that has not fired costs nothing, so the two should match (goal ≤ 1.05×).
func specCPUCases() throws -> [CaseResult] {
    guard let binary = factoryhostBinary(for: "spec_cpu") else { return [] }
    let directory = try scratchDirectory("spec_cpu")
    let fib = "local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end\n"
    let spec = try write(fib + "it(\"fib\", function() assert(fib(32) == 2178309) end)\n", to: directory, "cpu_spec.lua")
    let script = try write(fib + "assert(fib(32) == 2178309)\n", to: directory, "cpu.lua")
    return [try spawnInterleaved("spec_cpu", [("run", [binary, "run", script]), ("test", [binary, "test", spec])],
                                 in: directory, rounds: 7)]
}

// MARK: - Allocation, in instructions

/// `alloc_instructions`: an allocation-heavy script (tables and strings,
/// 300,000 rounds) under lua5.4 and `factoryhost run` with no memory limit,
/// counted by callgrind — repeatable whatever else the machine does — each
/// less the count of an empty script (start-up), so the ratio compares the
/// work itself (goal ≤ 1.03×). Skipped without valgrind.
func allocationCases() throws -> [CaseResult] {
    guard let binary = factoryhostBinary(for: "alloc_instructions"), let lua54 else { return [] }
    guard let valgrind = executable(["/usr/bin/valgrind", "/usr/local/bin/valgrind"]) else {
        FileHandle.standardError.write(Data("alloc_instructions: valgrind is not installed; skipping\n".utf8))
        return []
    }
    let directory = try scratchDirectory("alloc")
    let script = try write("""
        local t = {}
        for i = 1, 300000 do
          local s = "k" .. i
          t[i % 1000 + 1] = { name = s, list = { i, i + 1, i + 2 }, sub = { x = i } }
        end
        """, to: directory, "alloc.lua")
    let empty = try write("", to: directory, "empty.lua")
    // valgrind 3.19 cannot read the DWARF 5 of a Swift build: count a copy without it.
    let stripped = directory + "/factoryhost-stripped"
    try? FileManager.default.removeItem(atPath: stripped)
    try spawnAndWait(["/usr/bin/objcopy", "--strip-debug", binary, stripped])
    func instructions(_ argv: [String]) throws -> Double {
        let out = directory + "/callgrind.out"
        try spawnAndWait([valgrind, "-q", "--tool=callgrind", "--callgrind-out-file=\(out)"] + argv)
        let text = try String(contentsOfFile: out, encoding: .utf8)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("summary:") || $0.hasPrefix("totals:") }),
              let count = Double(line.split(separator: " ").last ?? "") else {
            throw NSError(domain: "callgrind", code: 1, userInfo: [NSLocalizedDescriptionKey: "no instruction count in \(out)"])
        }
        return count
    }
    var result = CaseResult(name: "alloc_instructions")
    result.add("lua5.4", try instructions([lua54, script]) - instructions([lua54, empty]))
    result.add("factoryhost", try instructions([stripped, "run", script]) - instructions([stripped, "run", empty]))
    return [result]
}

// MARK: - Deep graphs

/// `deep20000`: a chain of 20,000 Lua registrations, each depending on the
/// one before, resolved from its far end by `factoryhost run` — 20,000
/// resolves nested on the stack (goal: it builds; it failed near 3,600 on an
/// 8 MiB stack). Timed against lua5.4 running a plain-Lua recursion of the
/// same depth, for scale.
func deepGraphCases() throws -> [CaseResult] {
    guard let binary = factoryhostBinary(for: "deep20000"), let lua54 else { return [] }
    let directory = try scratchDirectory("deep")
    var lines = ["configuration \"app\" {", "  register \"table#r0\" { make = function() return { depth = 0 } end },"]
    for i in 1..<20_000 {
        lines.append("  register \"table#r\(i)\" { deps = { prev = \"table#r\(i - 1)\" }, make = function(d) return { depth = d.prev.depth + 1 } end },")
    }
    lines += ["}", "assert(container(\"app\"):resolve(\"table#r19999\").depth == 19999)"]
    let script = try write(lines.joined(separator: "\n") + "\n", to: directory, "deep.lua")
    let plain = try write("""
        local function build(n) if n == 0 then return { depth = 0 } end return { depth = build(n - 1).depth + 1 } end
        assert(build(19999).depth == 19999)
        """, to: directory, "plain.lua")
    return [try spawnInterleaved("deep20000", [("lua5.4", [lua54, plain]), ("factoryhost", [binary, "run", script])], rounds: 5)]
}

// MARK: - check at scale

let gnuTime = executable(["/usr/bin/time"])

/// Runs `argv` once; its wall time in ns and its peak resident size in
/// bytes (nil without GNU time). The peak is read by GNU time, a small
/// process: a child spawned by this one inherits, as its own peak, this
/// process's resident size at the spawn (Linux carries `ru_maxrss` across
/// exec), which hid tens of megabytes of check's peak.
func timeAndPeakMemory(_ argv: [String]) throws -> (ns: Double, bytes: Double?) {
    guard let gnuTime else {
        let start = now()
        try spawnAndWait(argv)
        return (Double(now() - start), nil)
    }
    let report = FileManager.default.temporaryDirectory.appendingPathComponent("factoryhost-bench-peak-\(getpid())").path
    let start = now()
    try spawnAndWait([gnuTime, "-f", "%M", "-o", report] + argv)
    let ns = Double(now() - start)
    let text = try String(contentsOfFile: report, encoding: .utf8)
    guard let kilobytes = text.split(separator: "\n").last.flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }) else {
        throw NSError(domain: "time", code: 1, userInfo: [NSLocalizedDescriptionKey: "no peak memory in \(report): \(text)"])
    }
    return (ns, kilobytes * 1024)
}

/// `check100k`: `factoryhost check` of 100,000 registrations, each depending
/// on the one before (goal ≤ 1 s), with its peak memory per registration
/// over an empty script's (goal ≤ 1.5 KB); `check_chain3000`: 3,000
/// configurations, each extending the one before (memory: linear, not the
/// 1.9 GB a cache of flattened plans took). Median of 3 runs each.
func checkScaleCases() throws -> [CaseResult] {
    guard let binary = factoryhostBinary(for: "check100k") else { return [] }
    let directory = try scratchDirectory("check")
    var lines = ["configuration \"app\" {", "  register \"table#r0\" { make = function() return {} end },"]
    for i in 1..<100_000 {
        lines.append("  register \"table#r\(i)\" { deps = { prev = \"table#r\(i - 1)\" }, make = function(d) return {} end },")
    }
    lines.append("}")
    let big = try write(lines.joined(separator: "\n") + "\n", to: directory, "regs100k.lua")
    var chain = ["configuration \"c0\" { register \"table#x0\" { make = function() return {} end } }"]
    for i in 1..<3000 {
        chain.append("configuration \"c\(i)\" { extends = \"c\(i - 1)\", register \"table#x\(i)\" { make = function() return {} end } }")
    }
    let chained = try write(chain.joined(separator: "\n") + "\n", to: directory, "chain3000.lua")
    let empty = try write("", to: directory, "empty.lua")
    func medianRun(_ argv: [String]) throws -> (ns: Double, bytes: Double?) {
        let runs = try (0..<3).map { _ in try timeAndPeakMemory(argv) }
        let bytes = runs.compactMap(\.bytes)
        return (median(runs.map(\.ns)), bytes.count == runs.count ? median(bytes) : nil)
    }
    let base = try medianRun([binary, "check", empty])
    let hundred = try medianRun([binary, "check", big])
    let chainRun = try medianRun([binary, "check", chained])
    var check = CaseResult(name: "check100k")
    check.add("factoryhost", hundred.ns)
    if let bytes = hundred.bytes, let baseBytes = base.bytes {
        check.add("bytes_per_registration", (bytes - baseBytes) / 100_000)
    } else {
        FileHandle.standardError.write(Data("check100k: /usr/bin/time (GNU time) is not installed; peak memory not measured\n".utf8))
    }
    var chainResult = CaseResult(name: "check_chain3000")
    chainResult.add("factoryhost", chainRun.ns)
    if let bytes = chainRun.bytes { chainResult.add("peak_megabytes", bytes / 1_048_576) }
    return [check, chainResult, try captiveScaleCase(binary: binary, directory: directory)]
}

/// `check_captive64k`: `factoryhost check` of a 65,536-deep transient chain
/// under 1,000 singletons, against the same chain under 10; the difference
/// over 990 is what the captive check costs per singleton (it walked the
/// whole chain for each, copying the path at every link: 0.19 s each).
func captiveScaleCase(binary: String, directory: String) throws -> CaseResult {
    func script(singletons: Int) -> [String] {
        let depth = 65_536
        var lines = ["configuration \"app\" {", "  register \"table#r0\" { scope = \"singleton\", make = function() return {} end },"]
        for i in 1..<depth {
            lines.append("  register \"table#r\(i)\" { deps = { prev = \"table#r\(i - 1)\" }, make = function(d) return {} end },")
        }
        for s in 0..<singletons {
            lines.append("  register \"table#s\(s)\" { scope = \"singleton\", deps = { top = \"table#r\(depth - 1)\" }, make = function(d) return {} end },")
        }
        return lines + ["}"]
    }
    let few = try write(script(singletons: 10).joined(separator: "\n") + "\n", to: directory, "captive10.lua")
    let many = try write(script(singletons: 1000).joined(separator: "\n") + "\n", to: directory, "captive1000.lua")
    let fewRuns = try (0..<3).map { _ in try timeAndPeakMemory([binary, "check", few]).ns }
    let manyRuns = try (0..<3).map { _ in try timeAndPeakMemory([binary, "check", many]).ns }
    var result = CaseResult(name: "check_captive64k")
    result.add("factoryhost", median(manyRuns))
    result.add("ns_per_singleton", max(0, median(manyRuns) - median(fewRuns)) / 990)
    return result
}
