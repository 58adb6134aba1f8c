import CLua
import FactoryMacros
import Foundation
import LuaBridge

/// A bare lua_CFunction, called as a plain function: `f(x)`.
let bareIncrement: lua_CFunction = { L in
    lua_pushinteger(L, lua_tointegerx(L, 1, nil) + 1)
    return 1
}

/// The same bare lua_CFunction as a method: `obj:step(x)` (its argument 2).
let bareStep: lua_CFunction = { L in
    lua_pushinteger(L, lua_tointegerx(L, 2, nil) + 1)
    return 1
}

/// An exported class with one method, for the `swift_method` contender.
final class Stepper: LuaExportable {
    static let luaTypeName = "Stepper"
}

/// The same method, exported by `@Scriptable` (the `macro_method` contender).
@Scriptable
final class MacroStepper {
    init() {}
    func step(_ x: Int) -> Int { x + 1 }
}

/// `lua_call`: the cost of one call from a Lua loop into C and into Swift.
///
/// - `cfunction`: a bare lua_CFunction called the same way as `swift_method`
///   — as the method of a userdata, `obj:step(x)`, found through the
///   userdata's metatable — doing no checks at all. The goal's reference.
/// - `swift_method`: an exported Swift method, `obj:step(x)`, with its
///   receiver and argument checked.
/// - `macro_method`: the same method exported by `@Scriptable` (what the
///   attribute generates must cost no more than the hand-written export).
/// - `cfunction_plain`: the bare function called as a local, `f(x)` — the
///   cheapest call Lua has (no method lookup), for scale.
/// - `swift_frame`, `swift_closure`: Swift functions called as `f(x)`
///   through the frame API and the value-array API.
func luaCallCases() throws -> [CaseResult] {
    let lua = try LuaState()
    try lua.withRawState { L in
        lua_pushcclosure(L, bareIncrement, 0)
        lua_setglobal(L, "cfunction_plain")
        // A userdata whose metatable's __index holds the bare method, as
        // exported types are laid out.
        lua_newuserdatauv(L, 16, 0)
        lua_createtable(L, 0, 1)
        lua_createtable(L, 0, 1)
        lua_pushcclosure(L, bareStep, 0)
        lua_setfield(L, -2, "step")
        lua_setfield(L, -2, "__index")
        lua_setmetatable(L, -2)
        lua_setglobal(L, "bareStepper")
    }
    try lua.register("swift_closure") { call in [.integer(try call.argument(1, as: Int.self) + 1)] }
    try lua.registerFrame("swift_frame") { f in
        f.push(try f.integer(1) + 1)
        return 1
    }
    let loop = try lua.run("""
        return function(f, n)
          local x = 0
          for i = 1, n do x = f(x) end
          return x
        end
        """, name: "bench")[0].function()
    let stepper = try LuaClass<Stepper>()
        .constructor { Stepper() }
        .method("step") { (_, x: Int) in x + 1 }
        .install(in: lua)
    try lua.setGlobal("Stepper", .table(stepper))
    try lua.setGlobal("MacroStepper", .table(MacroStepper.luaClass.install(in: lua)))
    let methodLoop = try lua.run("""
        return function(s, n)
          local x = 0
          for i = 1, n do x = s:step(x) end
          return x
        end
        """, name: "bench-method")[0].function()
    let calls = 100_000
    let plain = try lua.global("cfunction_plain"), closure = try lua.global("swift_closure")
    let frame = try lua.global("swift_frame"), bareObject = try lua.global("bareStepper")
    let swiftObject = try lua.run("return Stepper.new()", name: "new")[0]
    let macroObject = try lua.run("return MacroStepper.new()", name: "new")[0]
    let perLoop = try measureInterleavedSamples([
        ("cfunction", { consume(try methodLoop.call(bareObject, .integer(calls))) }),
        ("swift_method", { consume(try methodLoop.call(swiftObject, .integer(calls))) }),
        ("macro_method", { consume(try methodLoop.call(macroObject, .integer(calls))) }),
        ("cfunction_plain", { consume(try loop.call(plain, .integer(calls))) }),
        ("swift_frame", { consume(try loop.call(frame, .integer(calls))) }),
        ("swift_closure", { consume(try loop.call(closure, .integer(calls))) }),
    ]).map { ($0.0, $0.1.map { $0 / Double(calls) }) }
    var result = CaseResult(name: "lua_call", contenders: perLoop.map { ($0.0, median($0.1)) })
    result.samples = Dictionary(uniqueKeysWithValues: perLoop)
    return [result]
}

/// `timeout_fib30`: fib(30) in Lua — call-heavy VM work — with no limit and
/// under a time limit that never fires (60 s). A limit must cost nothing
/// until it fires: no hook runs before the deadline (the watchdog arms it
/// then), so the two should be equal (goal: within 5%).
func timeoutCases() throws -> [CaseResult] {
    let code = """
        local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
        return fib(30)
        """
    let free = try LuaState(), limited = try LuaState()
    limited.timeLimit = .seconds(60)
    let freeRun = try free.load(code, name: "fib.lua"), limitedRun = try limited.load(code, name: "fib.lua")
    let samples = try measureInterleavedSamples([
        ("no_limit", { consume(try freeRun.call()) }),
        ("timeout", { consume(try limitedRun.call()) }),
    ], rounds: 15, sampleNanoseconds: 200_000_000)
    var result = CaseResult(name: "timeout_fib30")
    for (name, values) in samples {
        result.add(name, median(values))
        result.samples[name] = values
    }
    return [result]
}
