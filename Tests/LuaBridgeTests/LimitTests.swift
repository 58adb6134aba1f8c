import Testing
@testable import LuaBridge

@Suite("Memory, instruction and time limits, and the sandbox")
struct LimitTests {
    @Test func unboundedAllocationUnderACapFailsAndTheStateSurvives() throws {
        let lua = try LuaState()
        lua.memoryLimit = 8 << 20
        let error = try #require(expectLuaError(lua, "local t = {} for i = 1, 1e9 do t[i] = ('x'):rep(64) .. i end"))
        #expect(error.kind == .memory)
        #expect(error.message == "not enough memory")
        lua.collectGarbage()
        #expect(lua.memoryUsed < 8 << 20)
        #expect(try lua.run("return ('ok'):rep(2)", name: "after") == ["okok"])
        // A script may catch it too, and go on.
        let caught = try lua.run("local ok, e = pcall(string.rep, 'x', 1 << 30) return ok, e", name: "catch")
        #expect(caught == [false, "not enough memory"])
        #expect(lua.stackTop == 0)
    }

    @Test func aLimitSetAfterTheHeapGrewCountsWhatIsAlreadyHeld() throws {
        // Without a limit Lua allocates uncounted (Lua's own allocator); the
        // counting one goes in with the first limit, starting from Lua's count.
        let lua = try LuaState()
        _ = try lua.run("held = {} for i = 1, 20000 do held[i] = ('x'):rep(100) .. i end", name: "grow")
        let held = lua.memoryUsed
        #expect(held > 2 << 20)
        lua.memoryLimit = held + (1 << 20)
        #expect(abs(lua.memoryUsed - held) < 64 << 10)
        #expect(try lua.run("local t = {} for i = 1, 1000 do t[i] = i end return #t", name: "small") == [1000])
        let error = try #require(expectLuaError(lua, "local t = {} for i = 1, 1e6 do t[i] = ('y'):rep(64) .. i end"))
        #expect(error.kind == .memory)
        // Freeing what was held makes room again, counted through the same allocator.
        _ = try lua.run("held = nil", name: "drop")
        lua.collectGarbage()
        #expect(lua.memoryUsed < held)
        #expect(try lua.run("local t = {} for i = 1, 10000 do t[i] = ('z'):rep(64) .. i end return #t", name: "again") == [10000])
    }

    @Test func swiftPushesAreNeverRefusedByTheCap() throws {
        let lua = try LuaState()
        lua.memoryLimit = 1 << 20
        try lua.register("big") { _ in [.string(LuaString(bytes: [UInt8](repeating: 65, count: 2 << 20)))] }
        // Swift produced the value; Lua gets the error when it next allocates over the cap.
        let error = try #require(expectLuaError(lua, "local s = big() return s .. s"))
        #expect(error.kind == .memory)
    }

    @Test func infiniteLoopUnderInstructionBudgetStops() throws {
        let lua = try LuaState()
        lua.instructionLimit = 1_000_000
        let error = try #require(expectLuaError(lua, "local n = 0\nwhile true do n = n + 1 end", name: "spin.lua"))
        #expect(error.message == "spin.lua:2: instruction limit exceeded (1000000 instructions)")
        // pcall inside the script cannot swallow it.
        let nested = try #require(expectLuaError(lua, "while true do pcall(function() while true do end end) end", name: "sneaky.lua"))
        #expect(nested.message.contains("instruction limit exceeded"))
        // The budget is per call: the next one runs normally.
        #expect(try lua.run("local s = 0 for i = 1, 1000 do s = s + i end return s", name: "sum") == [.integer(500500)])
    }

    @Test func runawayLoopUnderTimeLimitStops() throws {
        let lua = try LuaState()
        lua.timeLimit = .milliseconds(200)
        let start = ContinuousClock.now
        let error = try #require(expectLuaError(lua, "while true do end", name: "spin.lua"))
        #expect(error.message.hasPrefix("spin.lua:1: time limit exceeded"))
        #expect(ContinuousClock.now - start < .seconds(10))
        #expect(try lua.run("return 1", name: "after") == [.integer(1)])
    }

    @Test func sandboxRemovesDangerousLibraries() throws {
        let lua = try LuaState(libraries: .sandboxed)
        let absent = try lua.run("""
            return io, debug, os.execute, os.exit, os.getenv, os.remove, os.rename,
                   dofile, loadfile, package.loadlib
            """, name: "probe")
        #expect(absent.count == 10)
        #expect(absent.allSatisfy { $0 == .nil })
        #expect(try lua.run("return type(os.time()), type(string.format), #package.searchers", name: "kept")
            == ["number", "function", .integer(2)])
        let binary = try lua.run("return load(string.dump(function() return 1 end))", name: "bin")
        #expect(binary.first == .nil)
        #expect(try binary[1].string().contains("attempt to load a binary chunk"))
        #expect(try lua.run("return load('return 7')()", name: "text") == [.integer(7)])
        #expect(throws: LuaError.self) { try lua.load(bytes: [0x1B, 0x4C, 0x75, 0x61], chunkName: "=bin", mode: "t") }
    }

    @Test func standardLibrariesAreAllThere() throws {
        let lua = try LuaState()
        #expect(try lua.run("return type(io.write), type(debug.traceback), type(os.execute)", name: "std")
            == ["function", "function", "function"])
        let bare = try LuaState(libraries: .none)
        #expect(try bare.run("return print", name: "none") == [.nil])
    }
}
