import FactoryREPL
import FactoryScripting
import Foundation

/// `repl_start`: `factoryhost repl` up to reading its first line (standard
/// input at its end, so it then exits), against `factoryhost run` of an
/// empty script — both spawned, as a user starts them (goal ≤ 1.5×). Piped,
/// so libedit's set-up is not in it; `completion10k` measures the terminal's part.
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
    var result = CaseResult(name: "repl_start")
    result.add("run", try spawnTime([binary, "run", empty.path]))
    result.add("repl", try spawnTime([binary, "repl"]))
    return [result]
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
