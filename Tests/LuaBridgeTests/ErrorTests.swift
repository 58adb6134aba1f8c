import Testing
@testable import LuaBridge

@Suite("Errors come back as Swift errors, never unwinding through Swift")
struct ErrorTests {
    let lua: LuaState
    init() throws { lua = try LuaState() }

    @Test func runtimeErrorHasLocationAndTraceback() throws {
        let error = try #require(expectLuaError(lua, "local function f()\n  error('boom')\nend\nf()", name: "app.lua"))
        #expect(error.kind == .runtime)
        #expect(error.message == "app.lua:2: boom")
        #expect(error.valueType == "string")
        let traceback = try #require(error.traceback)
        #expect(traceback.hasPrefix("stack traceback:\n\t[C]: in function 'error'\n\tapp.lua:2: in "))
        #expect(traceback.contains("app.lua:4: in main chunk"))
        #expect(lua.stackTop == 0)
    }

    @Test func syntaxErrorNamesTheChunk() throws {
        let error = try #require(expectLuaError(lua, "x = = 1", name: "broken.lua"))
        #expect(error.kind == .syntax)
        #expect(error.message == "broken.lua:1: unexpected symbol near '='")
        #expect(error.traceback == nil)
    }

    /// A compiler limit (more functions than one chunk may hold) is Lua's
    /// runtime error without a place: it is a syntax error naming the
    /// chunk, with no traceback of the protected load.
    @Test func aCompilerLimitIsASyntaxErrorNamingTheChunk() throws {
        let code = "return {" + String(repeating: "function() end,", count: 131_072) + "}"
        let error = try #require(expectLuaError(lua, code, name: "many.lua"))
        #expect(error.kind == .syntax)
        #expect(error.message == "many.lua: too many functions (limit is 131071)")
        #expect(error.traceback == nil)
        #expect(lua.stackTop == 0)
    }

    @Test func nonStringErrorObjectsAreReportedLikeStockLua() throws {
        let table = try #require(expectLuaError(lua, "error({code = 1})"))
        #expect(table.message == "(error object is a table value)")
        #expect(table.valueType == "table")
        let withToString = try #require(expectLuaError(lua, "error(setmetatable({}, {__tostring = function() return 'custom!' end}))"))
        #expect(withToString.message == "custom!")
        #expect(withToString.traceback == nil)
        let nilError = try #require(expectLuaError(lua, "error(nil)"))
        #expect(nilError.message == "(error object is a nil value)")
        #expect(nilError.valueType == "nil")
        let number = try #require(expectLuaError(lua, "error(42)"))
        #expect(number.message == "42")
        let noPosition = try #require(expectLuaError(lua, "error('plain', 0)"))
        #expect(noPosition.message == "plain")
    }

    @Test func swiftErrorBecomesLuaErrorAtCallerPosition() throws {
        struct NotAllowed: Error, CustomStringConvertible { var description: String { "not allowed here" } }
        try lua.register("forbidden") { (_: LuaCall) in throw NotAllowed() }
        let error = try #require(expectLuaError(lua, "local x = 1\nforbidden()", name: "caller.lua"))
        #expect(error.message == "caller.lua:2: not allowed here")
        let caught = try lua.run("local ok, msg = pcall(forbidden) return ok, msg", name: "p.lua")
        #expect(caught == [false, "not allowed here"])
        // A message that already says where is raised as it is.
        try lua.register("raw") { (_: LuaCall) in throw LuaRaise("somewhere.lua:9: exact") }
        #expect(expectLuaError(lua, "raw()")?.message == "somewhere.lua:9: exact")
        // A LuaError Swift made — of any kind — gets the caller's position too.
        for kind in [LuaError.Kind.runtime, .memory, .file] {
            try lua.registerFrame("fails") { _ in throw LuaError(kind, "no connection") }
            #expect(expectLuaError(lua, "\n\nfails()", name: "k.lua")?.message == "k.lua:3: no connection", "\(kind)")
        }
        // One Lua raised (a syntax error from load in Swift) is passed on as it is.
        try lua.registerFrame("compile") { f in _ = try f.state.load(try f.string(1), name: "snippet"); return 0 }
        #expect(expectLuaError(lua, "compile('x = = 1')", name: "c.lua")?.message.hasPrefix("snippet:1:") == true)
    }

    @Test func badArgumentsReadLikeLuaAuxlib() throws {
        try lua.register("add") { call in
            [.integer(try call.argument(1, as: Int.self) + call.argument(2, as: Int.self))]
        }
        #expect(try lua.run("return add(2, 3)", name: "ok") == [.integer(5)])
        #expect(expectLuaError(lua, "add(1, 'x')", name: "a.lua")?.message
            == "a.lua:1: bad argument #2 to 'add' (integer expected, got string)")
        #expect(expectLuaError(lua, "add(1)", name: "a.lua")?.message
            == "a.lua:1: bad argument #2 to 'add' (integer expected, got no value)")
        #expect(expectLuaError(lua, "add(1.5, 1)", name: "a.lua")?.message
            == "a.lua:1: bad argument #1 to 'add' (number has no integer representation)")
        try lua.register("name") { call in [LuaValue(try call.argument(1, as: String.self))] }
        #expect(expectLuaError(lua, "name('\\255')", name: "u.lua")?.message
            == "u.lua:1: bad argument #1 to 'name' (string is not valid UTF-8)")
    }

    @Test func errorThreeLevelsDeepComesBackWithItsMessageAndLeaksNothing() throws {
        let counter = LifeCounter()
        do {
            let lua = try LuaState()
            let witness = Tracked(counter, "captured by the closure")
            try lua.register("level3") { _ in
                _ = witness
                throw LuaRaise("level 3 failed")
            }
            // Swift → Lua (level1) → Swift (level2) → Lua (inner) → Swift (level3) throws.
            try lua.register("level2") { call in
                try call.state.run("level3()", name: "inner.lua")
            }
            try lua.run("function level1() level2() end", name: "outer.lua")
            let before = lua.memoryUsed
            for _ in 0..<200 {
                let error = try #require(expectLuaError(lua, "level1()", name: "top.lua"))
                #expect(error.message == "level 3 failed")
                #expect(error.kind == .runtime)
                #expect(lua.stackTop == 0)
            }
            lua.collectGarbage()
            // 200 failed round trips hold on to nothing.
            #expect(lua.memoryUsed <= before + 4096)
            #expect(try lua.run("return 1 + 1", name: "after") == [.integer(2)])
            #expect(counter.alive == 1)
        }
        #expect(counter.alive == 0)
        #expect(counter.released == 1)
    }

    @Test func luaErrorInsideSwiftFunctionKeepsItsLocation() throws {
        try lua.register("callback") { call in
            try call.argument(1, as: LuaFunction.self).call()
        }
        let error = try #require(expectLuaError(lua, "callback(function()\n  error('deep')\nend)", name: "cb.lua"))
        #expect(error.message == "cb.lua:2: deep")
    }

    @Test func coroutinesCallSwiftFunctions() throws {
        try lua.register("twice") { call in [.integer(try call.argument(1, as: Int.self) * 2)] }
        let out = try lua.run("""
            local co = coroutine.wrap(function(a)
              local b = coroutine.yield(twice(a))
              return twice(b)
            end)
            return co(5), co(7)
            """, name: "co.lua")
        #expect(out == [.integer(10), .integer(14)])
        let error = try #require(expectLuaError(lua, "return coroutine.wrap(function() twice('x') end)()", name: "co2.lua"))
        #expect(error.message.contains("bad argument #1 to 'twice' (integer expected, got string)"))
    }
}
