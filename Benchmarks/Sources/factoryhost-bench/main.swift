import CLua
import LuaBridge
import Foundation

// factoryhost-bench: every case, every contender, in one run.
//   --json           one JSON object { case: { contender: median ns per operation } }
//                    (alloc_instructions: instructions, not ns)
//   --filter NAME    only cases whose name contains NAME

let arguments = CommandLine.arguments.dropFirst()
// Set at run time from the arguments, so no optimizer can know what the sink does.
opaqueSink = { [count = arguments.count] value in if count > 1_000 { print(value) } }
let json = arguments.contains("--json")
let filter = arguments.firstIndex(of: "--filter").flatMap { arguments.index(after: $0) < arguments.endIndex ? arguments[arguments.index(after: $0)] : nil }

// --iterate CONTENDER N: run graph9 N times for one contender, untimed (for
// instruction counts under `valgrind --tool=callgrind`, which are repeatable).
if let at = arguments.firstIndex(of: "--iterate") {
    let rest = Array(arguments[at...].dropFirst())
    let contender = rest.first ?? "factoryhost"
    if contender == "swift_frame" {
        let lua = try LuaState()
        try lua.registerFrame("f") { f in f.push(try f.integer(1) + 1); return 1 }
        _ = try lua.run("local f = f local x = 0 for i = 1, \(rest.dropFirst().first ?? "1000000") do x = f(x) end", name: "loop")
        exit(0)
    }
    if contender == "cfunction_plain" {
        let lua = try LuaState()
        try lua.withRawState { L in
            lua_pushcclosure(L, bareIncrement, 0)
            lua_setglobal(L, "f")
        }
        _ = try lua.run("local f = f local x = 0 for i = 1, \(rest.dropFirst().first ?? "1000000") do x = f(x) end", name: "loop")
        exit(0)
    }
    if contender == "cfunction" {
        let lua = try LuaState()
        try lua.withRawState { L in
            lua_newuserdatauv(L, 16, 0)
            lua_createtable(L, 0, 1)
            lua_createtable(L, 0, 1)
            lua_pushcclosure(L, { L in lua_pushinteger(L, lua_tointegerx(L, 2, nil) + 1); return 1 }, 0)
            lua_setfield(L, -2, "step")
            lua_setfield(L, -2, "__index")
            lua_setmetatable(L, -2)
            lua_setglobal(L, "s")
        }
        _ = try lua.run("local s = s local x = 0 for i = 1, \(rest.dropFirst().first ?? "1000000") do x = s:step(x) end", name: "loop")
        exit(0)
    }
    if contender == "swift_method" {
        let lua = try LuaState()
        try lua.setGlobal("Stepper", .table(try LuaClass<Stepper>()
            .constructor { Stepper() }
            .method("step") { (_, x: Int) in x + 1 }
            .install(in: lua)))
        _ = try lua.run("local s, x = Stepper.new(), 0 for i = 1, \(rest.dropFirst().first ?? "1000000") do x = s:step(x) end", name: "loop")
        exit(0)
    }
    if contender == "lua_transient" {
        let loop = try luaResolveLoop()
        _ = try loop.function.call(loop.app, "Store", .integer(rest.dropFirst().first.flatMap { Int($0) } ?? 100_000))
        exit(0)
    }
    let n = rest.dropFirst().first.flatMap { Int($0) } ?? 100_000
    let fh = try factoryhostContainer()
    let sw = swinjectContainer()
    let (host, lua) = try luaGraph9Container()
    defer { withExtendedLifetime(host) {} }
    for _ in 0..<n {
        switch contender {
        case "hand": consume(handGraph9())
        case "swinject": consume(sw.resolve(ViewModel.self))
        case "lua": consume(try lua.resolve(ViewModel.self))
        case "singleton": consume(try fh.resolve(Logger.self, name: "shared"))
        default: consume(try fh.resolve(ViewModel.self))
        }
    }
    exit(0)
}

/// Goals from the issues: (case, contender, reference, at most this ratio).
let goals: [(String, String, String, Double, String)] = [
    ("graph9", "factoryhost", "hand", 2.0, "factoryhost ≤ 2× hand-written"),
    ("graph9", "factoryhost", "swinject", 0.1, "factoryhost ≥ 10× faster than Swinject"),
    ("graph9", "lua", "swinject", 1.0, "Lua factories faster than Swinject's Swift closures"),
    ("lua_call", "swift_method", "cfunction", 2.0, "exported Swift method ≤ 2× bare lua_CFunction called the same way"),
    ("lua_call", "macro_method", "swift_method", 1.05, "a @Scriptable method ≤ 1.05× the hand-written export (#36)"),
    ("startup_run", "factoryhost", "lua5.4", 3.0, "run of a one-line script ≤ 3× lua5.4"),
    ("startup_dsl", "factoryhost", "lua5.4", 3.0, "run of a DSL script ≤ 3× lua5.4 of a one-line script"),
    ("startup_check", "factoryhost", "lua5.4", 3.0, "check of that script ≤ 3× lua5.4 of a one-line script"),
    ("startup_graph", "factoryhost", "lua5.4", 3.0, "graph of that script ≤ 3× lua5.4 of a one-line script"),
    ("tests500", "factoryhost", "busted", 1.0, "500 trivial tests in one file: at most busted's time"),
    ("tests4000", "factoryhost", "busted", 1.0, "4,000 trivial tests in one file: at most busted's time"),
    ("fixture1m", "factoryhost", "busted", 1.0, "100 tests after a 1M-object top level: at most busted's time"),
    ("spec_cpu", "test", "run", 1.05, "CPU-bound code in a test (its limit armed) ≤ 1.05× the same under run"),
    ("alloc_instructions", "factoryhost", "lua5.4", 1.03, "allocation-heavy Lua without a limit ≤ 1.03× lua5.4 (instructions)"),
    ("timeout_fib30", "timeout", "no_limit", 1.05, "a time limit that has not fired costs ≤ 5% on fib(30)"),
    ("repl_start", "repl", "run", 1.5, "the REPL's first prompt on a terminal within 1.5× run of an empty script"),
    ("lua_resolve_singleton", "factoryhost", "plain_lua", 2.0, "c:resolve of a built singleton ≤ 2× a plain-Lua container"),
    ("lua_resolve_transient", "factoryhost", "plain_lua", 3.0, "c:resolve of a transient Lua factory ≤ 3× a plain-Lua container"),
]

var results: [CaseResult] = []
let groups: [([String], () throws -> [CaseResult])] = [
    (["graph9", "singleton", "assisted3", "regs10", "regs10000", "threads1", "threads8"], registryCases),
    (["lua_call"], luaCallCases), (["lua_resolve_singleton", "lua_resolve_transient"], luaResolveCases), (["load1000", "load10000"], loadCases),
    (["startup_run", "startup_dsl", "startup_check", "startup_graph"], startupCases),
    (["tests500", "tests4000", "fixture1m"], runnerCases), (["spec_cpu"], specCPUCases),
    (["alloc_instructions"], allocationCases), (["deep20000"], deepGraphCases),
    (["check100k", "check_chain3000", "check_captive64k"], checkScaleCases),
    (["timeout_fib30"], timeoutCases),
    (["repl_start"], replStartCases), (["completion10k"], completionCases),
]
for (names, run) in groups where filter.map({ f in names.contains { $0.contains(f) } }) ?? true {
    for result in try run() where filter.map({ result.name.contains($0) }) ?? true {
        results.append(result)
    }
}

if json {
    var object: [String: [String: Double]] = [:]
    for result in results {
        object[result.name] = Dictionary(uniqueKeysWithValues: result.contenders.map { ($0.0, ($0.1 * 10).rounded() / 10) })
    }
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
} else {
    func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(0, n - s.count)) }
    func format(_ ns: Double) -> String {
        ns >= 1_000_000 ? String(format: "%.2f ms", ns / 1e6) : ns >= 1000 ? String(format: "%.2f µs", ns / 1000) : String(format: "%.1f ns", ns)
    }
    print(pad("case", 24) + pad("contender", 16) + pad("median", 14) + "vs first")
    for result in results {
        let first = result.contenders.first?.1 ?? 1
        for (index, (contender, ns)) in result.contenders.enumerated() {
            let shown = result.name == "alloc_instructions" ? String(format: "%.1fM instr", ns / 1e6)
                : contender == "bytes_per_registration" ? String(format: "%.0f B", ns)
                : contender == "peak_megabytes" ? String(format: "%.0f MB", ns) : format(ns)
            print(pad(index == 0 ? result.name : "", 24) + pad(contender, 16) + pad(shown, 14) + String(format: "%.2fx", ns / first))
        }
    }
    if let r10 = results.first(where: { $0.name == "regs10" })?.ns("factoryhost"),
       let r10k = results.first(where: { $0.name == "regs10000" })?.ns("factoryhost") {
        print(String(format: "\nregs10000 / regs10 (factoryhost): %.2fx (goal ≤ 1.10x)", r10k / r10))
    }
    if let l1 = results.first(where: { $0.name == "load1000" })?.ns("factoryhost"),
       let l10 = results.first(where: { $0.name == "load10000" })?.ns("factoryhost") {
        print(String(format: "load10000 / load1000 (factoryhost): %.2fx (goal: linear, ≈ 10x; ≤ 12x)", l10 / l1))
    }
    if let call = results.first(where: { $0.name == "lua_call" }), let ratio = call.pairedRatio("swift_method", "cfunction_plain") {
        print(String(format: "lua_call: swift_method / cfunction_plain = %.2fx (for scale: a method call against Lua's cheapest plain call)", ratio))
    }
    print("\nGoals (ratios: median over rounds of the two contenders' times in the same round):")
    for (name, contender, reference, limit, text) in goals {
        guard let result = results.first(where: { $0.name == name }), let ratio = result.pairedRatio(contender, reference) else { continue }
        print(String(format: "%@: %@ / %@ = %.2fx — %@ %@", name, contender, reference, ratio, text, ratio <= limit ? "✓" : "✗"))
    }
    if let check = results.first(where: { $0.name == "check100k" }), let ns = check.ns("factoryhost"),
       let bytes = check.ns("bytes_per_registration") {
        print(String(format: "check100k: %.2f s — check of 100,000 registrations in under 1 s %@", ns / 1e9, ns <= 1e9 ? "✓" : "✗"))
        print(String(format: "check100k: %.0f bytes of peak memory per registration — at most 1.5 KB %@", bytes, bytes <= 1536 ? "✓" : "✗"))
    }
    if let chain = results.first(where: { $0.name == "check_chain3000" }), let megabytes = chain.ns("peak_megabytes") {
        print(String(format: "check_chain3000: %.0f MB peak for 3,000 chained configurations (was 1.9 GB: plans cached per configuration)", megabytes))
    }
    if let captive = results.first(where: { $0.name == "check_captive64k" }), let perSingleton = captive.ns("ns_per_singleton") {
        print(String(format: "check_captive64k: %.3f ms per singleton over a 65,536-deep transient chain — independent of its depth (was 190 ms) %@",
                     perSingleton / 1e6, perSingleton < 1e6 ? "✓" : "✗"))
    }
    if let completion = results.first(where: { $0.name == "completion10k" })?.ns("factoryhost") {
        print(String(format: "completion10k: %.2f ms — a registration key among 10,000 completes in under 20 ms %@",
                     completion / 1e6, completion < 20e6 ? "✓" : "✗"))
    }
}
