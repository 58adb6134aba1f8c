import Testing
@testable import LuaBridge

/// Inputs that once crashed, hung or corrupted an embedding like this one.
@Suite("Hostile and unusual input never crashes or hangs the host")
struct HardeningTests {
    @Test func limitCannotBeEscapedThroughACoroutine() throws {
        let lua = try LuaState(libraries: .sandboxed)
        lua.instructionLimit = 200_000
        let error = try #require(expectLuaError(lua, """
            pcall(coroutine.wrap(function() while true do end end))
            local n = 0
            while true do pcall(function() while true do n = n + 1 end end) end
            """, name: "escape.lua"))
        #expect(error.message.contains("instruction limit exceeded"))
        #expect(try lua.run("return 'usable'", name: "after") == ["usable"])
    }

    @Test func smallInstructionLimitsAreExact() throws {
        let lua = try LuaState()
        lua.instructionLimit = 100
        #expect(expectLuaError(lua, "for i = 1, 1000 do end")?.message.contains("instruction limit exceeded (100 instructions)") == true)
    }

    @Test func sandboxRefusesFinalizers() throws {
        let lua = try LuaState(libraries: .sandboxed)
        let error = try #require(expectLuaError(lua, "setmetatable({}, {__gc = function() while true do end end})", name: "gc.lua"))
        #expect(error.message == "gc.lua:1: untrusted code cannot set a __gc metamethod")
        #expect(try lua.run("return getmetatable(setmetatable({}, {__index = {x = 1}})).__index.x", name: "ok") == [.integer(1)])
    }

    @Test func errorObjectToStringRunsUnderTheMemoryCap() throws {
        let lua = try LuaState()
        lua.memoryLimit = 1 << 20
        let error = try #require(expectLuaError(lua, "error(setmetatable({}, {__tostring = function() return ('x'):rep(1 << 30) end}))"))
        // Refused memory, the __tostring fails; the error stays the value
        // raised (kept, its cause not lost), reported by its type.
        #expect(error.kind == .runtime && error.message == "(error object is a table value)", "\(error.kind): \(error.message)")
        #expect(error.errorValueID != nil)
        lua.collectGarbage()
        #expect(lua.memoryUsed < 1 << 20)
        #expect(try lua.run("return 1", name: "after") == [.integer(1)])
    }

    @Test func failingNewIndexKeepsItsMessage() throws {
        let lua = try LuaState()
        let t = try lua.run("return setmetatable({}, {__newindex = function() error('read-only table') end})", name: "meta.lua")[0].table()
        do {
            try t.set("x", 1)
            Issue.record("expected an error")
        } catch let error as LuaError {
            #expect(error.message == "meta.lua:1: read-only table")
            #expect(error.valueType == "string")
        }
        let g = try lua.run("return setmetatable({}, {__index = function(_, k) error('no field ' .. k) end})", name: "idx.lua")[0].table()
        do {
            _ = try g.get("y")
            Issue.record("expected an error")
        } catch let error as LuaError {
            #expect(error.message == "idx.lua:1: no field y")
            #expect(error.valueType == "string")
            #expect(error.traceback?.hasPrefix("stack traceback:") == true)
        }
        #expect(lua.stackTop == 0)
    }

    @Test func loadingAFileUnderATinyCapFailsCleanly() throws {
        let lua = try LuaState()
        lua.memoryLimit = 1
        #expect(throws: LuaError.self) { try lua.loadFile("/etc/hostname") }
        #expect(throws: LuaError.self) { try lua.load("return 1", name: "x") }
        lua.memoryLimit = nil
        #expect(try lua.run("return 2", name: "after") == [.integer(2)])
        #expect(lua.stackTop == 0)
    }

    @Test func absurdTableCapacitiesAreClamped() throws {
        let lua = try LuaState()
        #expect(try lua.newTable(arrayCapacity: -1, hashCapacity: Int.max).count == 0)
    }

    @Test func closeDuringACallWaitsForTheCallToReturn() throws {
        let lua = try LuaState()
        try lua.register("quit") { call in
            call.state.close()
            return ["still running"]
        }
        #expect(try lua.run("local r = quit() return r .. '!'", name: "quit.lua") == ["still running!"])
        #expect(lua.isClosed)
    }

    @Test func foreignUserdataIsNeverTakenForASwiftObject() throws {
        let lua = try LuaState()
        let stdout = try lua.run("return io.stdout", name: "io")[0].userdata()
        #expect(stdout.object(as: Tracked.self) == nil)
        // A Swift type named like io's metatable does not disturb io, or vice versa.
        let counter = LifeCounter()
        try lua.setGlobal("obj", .userdata(lua.pushObject(Tracked(counter), type: "FILE*")))
        #expect(try lua.run("return io.type(io.stdout), io.type(obj)", name: "t") == ["file", .nil])
        // Calling our __gc by hand on a file, or swapping a Swift function's upvalue, is refused.
        try lua.setGlobal("fn", .function(lua.function("fn") { _ in [] }))
        #expect(expectLuaError(lua, "debug.getmetatable(obj).__gc(io.stdout) return io.type(io.stdout)") == nil)
        let swapped = try #require(expectLuaError(lua, "debug.setupvalue(fn, 1, io.stdout) fn()", name: "swap.lua"))
        #expect(swapped.message == "swap.lua:1: bad argument #1 to 'setupvalue' (the upvalues of a Swift function cannot be changed)")
        #expect(try lua.run("local up = 1 local function f() return up end "
                            + "return debug.setupvalue(f, 1, 2), f()", name: "lua fn") == ["up", 2])
        // The function's own upvalue cannot be reached (getupvalue shows a
        // Swift function as having none); and were it passed, it is no
        // object of any type.
        _ = try LuaClass<Cache>().constructor { Cache() }.method("size") { $0.entries.count }.install(in: lua)
        try lua.setGlobal("cache", .userdata(lua.pushObject(Cache(), type: "Cache")))
        try lua.setGlobal("size", .function(lua.frameFunction("size") { f in
            f.push(try f.object(1, as: Cache.self, typeName: "Cache").entries.count)
            return 1
        }))
        #expect(try lua.run("return cache:size(), size(cache)", name: "ok") == [0, 0])
        let box = try #require(expectLuaError(lua, "local _, box = debug.getupvalue(cache.size, 1) cache.size(box)", name: "box.lua"))
        #expect(box.message == "box.lua:1: bad argument #1 to 'Cache:size' (Cache expected, got nil)")
        #expect(try lua.run("return select('#', debug.getupvalue(cache.size, 1)), select('#', debug.getupvalue(size, 1))",
                            name: "hidden") == [0, 0])
        let arg = try #require(expectLuaError(lua, "local _, box = debug.getupvalue(cache.size, 1) size(box)", name: "arg.lua"))
        #expect(arg.message == "arg.lua:1: bad argument #1 to 'size' (Cache expected, got nil)")
        // Other functions' upvalues read as before.
        #expect(try lua.run("return select('#', debug.getupvalue(print, 1))", name: "stock") == [0])
        try lua.run("obj = nil", name: "drop")
        lua.collectGarbage()
        #expect(counter.alive == 0)
    }

    @Test func sandboxedRequireSearchesOnlyTheHostsPath() throws {
        let lua = try LuaState(libraries: .sandboxed)
        let error = try #require(expectLuaError(lua, "package.path = '/etc/?' return require 'passwd'", name: "req.lua"))
        #expect(error.message.contains("module 'passwd' not found"))
        #expect(!error.message.contains("/etc/passwd"))
        lua.setSandboxModulePath("/etc/?")
        let binaryOrText = try #require(expectLuaError(lua, "return require 'passwd'", name: "req.lua"))
        #expect(binaryOrText.message.contains("error loading module 'passwd'"))
    }
}
