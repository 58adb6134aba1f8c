import Testing
@testable import LuaBridge

/// `LuaFrame.pushBound`: one Swift function, bound to values per call
/// (how `register "Key" { … }` returns its body function).
@Suite("Bound Swift functions carry their values, out of the script's reach")
struct BoundFunctionTests {
    let lua: LuaState
    init() throws { lua = try LuaState() }

    /// `greeter(name)` returns a function bound to the name and a number.
    private func installGreeter() throws {
        let greet = try lua.frameFunction("greet") { f in
            let name = f.boundString(1) ?? "?"
            let times = f.boundInteger(2) ?? 0
            f.push(String(repeating: "hello, \(name)" + (f.count > 0 ? " and " + (try f.string(1)) : "") + "; ", count: times))
            return 1
        }
        try lua.registerFrame("greeter") { f in
            f.pushArgument(1)
            f.push(try f.integer(2))
            try f.pushBound(greet, values: 2)
            return 1
        }
    }

    @Test func eachBoundFunctionKeepsItsOwnValues() throws {
        try installGreeter()
        let out = try lua.run("local a, b = greeter('ann', 1), greeter('bo', 2) return a(), b('cy'), a('di')", name: "g")
        #expect(out == ["hello, ann; ", "hello, bo and cy; hello, bo and cy; ", "hello, ann and di; "])
        #expect(lua.stackTop == 0)
    }

    @Test func boundValuesReadAsNilPastTheLastAndInUnboundFunctions() throws {
        let peek = try lua.frameFunction("peek") { f in
            try f.push(f.bound(1))
            try f.push(f.bound(3))
            f.push(f.boundString(2) == nil)
            return 3
        }
        try lua.setGlobal("plain", .function(peek))
        try lua.registerFrame("bind") { f in
            f.push("x")
            f.push(2)
            try f.pushBound(peek, values: 2)
            return 1
        }
        #expect(try lua.run("return plain()", name: "p") == [.nil, .nil, true])
        #expect(try lua.run("return bind()()", name: "b") == ["x", .nil, true])   // 2 is no string
    }

    @Test func theBoundValuesAreHiddenAndCannotBeReplaced() throws {
        try installGreeter()
        try lua.run("g = greeter('ann', 1)", name: "setup")
        #expect(try lua.run("return select('#', debug.getupvalue(g, 1)), select('#', debug.getupvalue(g, 2))",
                            name: "hidden") == [0, 0])
        let swapped = try #require(expectLuaError(lua, "debug.setupvalue(g, 2, 'eve')", name: "swap.lua"))
        #expect(swapped.message.contains("the upvalues of a Swift function cannot be changed"))
        #expect(try lua.run("return g()", name: "still") == ["hello, ann; "])
    }

    @Test func onlySwiftFunctionsBindAndCountsAreChecked() throws {
        let luaFunction = try lua.run("return function() end", name: "f")[0].function()
        try lua.registerFrame("bindLua") { f in
            f.push(1)
            try f.pushBound(luaFunction, values: 1)
            return 1
        }
        #expect(expectLuaError(lua, "bindLua()", name: "b.lua")?.message == "b.lua:1: only a Swift function can be bound to values")
        let swift = try lua.frameFunction("s") { _ in 0 }
        try lua.registerFrame("bindTooMany") { f in
            try f.pushBound(swift, values: 3)          // nothing was pushed
            return 1
        }
        #expect(expectLuaError(lua, "bindTooMany()", name: "m.lua")?.message == "m.lua:1: cannot bind 3 values to a function")
        #expect(lua.stackTop == 0)
    }

    @Test func boundFunctionsAreCollectedAndTheirSwiftFunctionLivesOn() throws {
        try installGreeter()
        try lua.run("for i = 1, 1000 do greeter('n' .. i, 1)() end", name: "many")
        lua.collectGarbage()
        #expect(try lua.run("return greeter('last', 1)()", name: "after") == ["hello, last; "])
    }

    @Test func positionsNameTheChunkAndLineAsLocationDoes() throws {
        try lua.registerFrame("where") { f in
            let position = f.position()
            f.push(position?.chunk ?? "none")
            f.push(position?.line ?? -1)
            f.push(f.location())
            return 3
        }
        #expect(try lua.run("\n\nreturn where()", name: "pos.lua") == ["pos.lua", 3, "pos.lua:3: "])
        #expect(try lua.run("return pcall(where)", name: "c") == [true, "none", -1, ""])   // called from C
    }

    @Test func fieldsReadRawByPreparedNameAndEntriesCount() throws {
        let table = try lua.run("return setmetatable({ make = 1, [2] = 'x', deps = {} }, { __index = function() return 'meta' end })",
                                name: "t")[0].table()
        #expect(try table.rawGet(LuaFieldName("make")) == .integer(1))
        #expect(try table.rawGet(LuaFieldName("scope")) == .nil)         // raw: no __index
        #expect(try table.entryCount == 3)
        #expect(try lua.newTable().entryCount == 0)
    }

    /// `boundString(_:reusing:)` hands out the cached string only while the
    /// bytes are the same: long names (heap strings), short ones, a NUL
    /// inside, and back again.
    @Test func aReusedBoundStringIsNeverStale() throws {
        let files = LuaStringCache()
        let read = try lua.frameFunction("read") { f in
            f.push(f.boundString(1, reusing: files) ?? "<nil>")
            return 1
        }
        try lua.registerFrame("bind") { f in
            f.pushArgument(1)
            try f.pushBound(read, values: 1)
            return 1
        }
        let long = "/a/rather/long/path/to/some/script.lua"
        let names = [long, long, long + "x", "short", "short", "nul\0here", "nul\0there", long, "", long]
        for name in names {
            let literal = name.replacingOccurrences(of: "\0", with: "\\0")
            let out = try lua.run("return bind('\(literal)')()", name: "b")
            #expect(out == [LuaValue(name.replacingOccurrences(of: "\\0", with: "\u{0}"))], "\(name)")
        }
        #expect(lua.stackTop == 0)
    }

    /// `push(_:reusing:)` pushes the kept Lua string only for the same text
    /// in the same state: every push reads back as its own text.
    @Test func aReusedPushedStringIsNeverStale() throws {
        let pushed = LuaPushedString()
        let other = try LuaState()
        for state in [lua, other] {
            try state.registerFrame("echo") { f in
                f.push(try f.string(1), reusing: pushed)
                return 1
            }
        }
        let long = String(repeating: "/long/path", count: 6) + ".lua"
        for (state, text) in [(lua, long), (lua, long), (lua, "short"), (other, "short"), (other, long), (lua, long), (lua, long + "!")] {
            try state.setGlobal("text", LuaValue(text))
            #expect(try state.run("return echo(text)", name: "e") == [LuaValue(text)])
        }
        #expect(lua.stackTop == 0)
    }
}
