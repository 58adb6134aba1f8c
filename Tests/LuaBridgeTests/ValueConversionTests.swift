import Testing
@testable import LuaBridge

@Suite("Values cross the bridge both ways")
struct ValueConversionTests {
    let lua: LuaState
    init() throws { lua = try LuaState() }

    /// Sends `value` through a Lua identity function and back.
    func roundTrip(_ value: LuaValue) throws -> LuaValue {
        let identity = try lua.run("return function(...) return ... end", name: "id")[0].function()
        let out = try identity.call(value)
        #expect(out.count == 1)
        return out[0]
    }

    @Test func scalarsRoundTrip() throws {
        #expect(try roundTrip(.nil) == .nil)
        #expect(try roundTrip(true) == .boolean(true))
        #expect(try roundTrip(false) == .boolean(false))
        #expect(try roundTrip(.integer(Int.max)) == .integer(Int.max))
        #expect(try roundTrip(.integer(Int.min)) == .integer(Int.min))
        #expect(try roundTrip(.number(2.5)) == .number(2.5))
        #expect(try roundTrip(.number(-0.0)) == .number(-0.0))
        #expect(try roundTrip(.number(.infinity)) == .number(.infinity))
        guard case .number(let nan) = try roundTrip(.number(.nan)) else { Issue.record("NaN lost its type"); return }
        #expect(nan.isNaN)
    }

    @Test func integersStayIntegersAndFloatsStayFloats() throws {
        let out = try lua.run("return 1, 1.0, 2^53, 7 // 2, 7 / 2, math.maxinteger", name: "nums")
        #expect(out == [.integer(1), .number(1.0), .number(9007199254740992), .integer(3), .number(3.5), .integer(Int.max)])
        let f = try lua.load("local a, b = ... return math.type(a), math.type(b)", name: "t")
        #expect(try f.call(.integer(3), .number(3)) == ["integer", "float"])
    }

    @Test func stringsKeepEmbeddedNulsAndInvalidUTF8() throws {
        let bytes: [UInt8] = [0x61, 0x00, 0x62, 0xFF, 0x00]
        let back = try roundTrip(.string(LuaString(bytes: bytes)))
        #expect(try back.luaString().bytes == bytes)
        let length = try lua.load("return #(...)", name: "len").call(.string(LuaString(bytes: bytes)))
        #expect(length == [.integer(5)])
        #expect(throws: LuaError.self) { try back.string() }
        let withNul = try lua.run("return 'a\\0b'", name: "nul")[0]
        #expect(try withNul.string() == "a\u{0}b")
        #expect(try roundTrip("héllo ✓").string() == "héllo ✓")
    }

    @Test func tablesReadAsArraysAndDictionaries() throws {
        let t = try lua.run("return {10, 20, 30}", name: "arr")[0].table()
        #expect(try t.array() == [10, 20, 30])
        #expect(try [Int].fromLua(.table(t)) == [10, 20, 30])
        #expect(try t.count == 3)
        let d = try lua.run("return {a = 1, b = 'two', [3] = true}", name: "dict")[0].table()
        let dict = try d.dictionary()
        #expect(dict["a"] == .integer(1))
        #expect(dict["b"] == "two")
        #expect(dict[.integer(3)] == .boolean(true))
        #expect(try [String: Int].fromLua(lua.run("return {x = 1, y = 2}", name: "d")[0]) == ["x": 1, "y": 2])
    }

    @Test func swiftCollectionsBecomeTables() throws {
        let array = try ["a", "b", "c"].toLua(in: lua)
        let joined = try lua.load("return table.concat(..., ',')", name: "join").call(array)
        #expect(try joined[0].string() == "a,b,c")
        let dict = try ["x": 1, "y": 2].toLua(in: lua)
        let sum = try lua.load("local t = ... return t.x + t.y", name: "sum").call(dict)
        #expect(sum == [.integer(3)])
        let nested = try [[1, 2], [3]].toLua(in: lua)
        #expect(try [[Int]].fromLua(nested) == [[1, 2], [3]])
        let optional: Int? = nil
        #expect(try optional.toLua(in: lua) == .nil)
    }

    @Test func typedReadsNameExpectedAndActual() throws {
        let s: LuaValue = "text"
        #expect(throws: LuaError.typeMismatch(expected: "integer", got: "string")) { try s.int() }
        #expect(throws: LuaError.typeMismatch(expected: "boolean", got: "integer")) { try LuaValue.integer(1).bool() }
        #expect(throws: LuaError.typeMismatch(expected: "table", got: "nil")) { try LuaValue.nil.table() }
        #expect(throws: LuaError(.typeMismatch, "number has no integer representation")) { try LuaValue.number(1.5).int() }
        #expect(try LuaValue.number(4.0).int() == 4)
        #expect(try LuaValue.integer(4).double() == 4.0)
        let mixed = try lua.run("return {1, 'two', 3}", name: "m")[0]
        #expect(throws: LuaError(.typeMismatch, "element [2]: integer expected, got string")) { try [Int].fromLua(mixed) }
        let holes = try lua.run("return {1, 2, x = 3}", name: "h")[0]
        #expect(throws: LuaError.self) { try [Int].fromLua(holes) }
        #expect(throws: LuaError.typeMismatch(expected: "integer or nil", got: "string")) { try Int?.fromLua("x") }
        #expect(try Int?.fromLua(.nil) == nil)
    }

    @Test func functionsAndGlobals() throws {
        try lua.setGlobal("answer", 42)
        #expect(try lua.run("return answer", name: "g") == [.integer(42)])
        try lua.run("function double(x) return x * 2 end", name: "def")
        let double = try lua.global("double").function()
        #expect(try double.call(21) == [.integer(42)])
        #expect(try lua.global("missing") == .nil)
        #expect(lua.stackTop == 0)
    }

    @Test func tableAccessRunsMetamethodsProtected() throws {
        let t = try lua.run("""
            return setmetatable({}, {
              __index = function(_, k) if k == 'bad' then error('no field ' .. k) end return k .. '!' end,
              __newindex = function() error('read-only table', 2) end })
            """, name: "meta.lua")[0].table()
        #expect(try t.get("x") == "x!")
        #expect(throws: LuaError.self) { try t.get("bad") }
        #expect(throws: LuaError.self) { try t.set("y", 1) }
        #expect(try t.rawGet("x") == .nil)
        try t.rawSet("y", 1)
        #expect(try t.rawGet("y") == .integer(1))
        #expect(throws: LuaError(.typeMismatch, "table index is nil")) { try t.rawSet(.nil, 1) }
        #expect(lua.stackTop == 0)
    }

    @Test func referencesFromAnotherStateAreRefused() throws {
        let other = try LuaState()
        let foreign = try other.newTable()
        let f = try lua.run("return function(x) return x end", name: "f")[0].function()
        #expect(throws: LuaError.self) { try f.call(.table(foreign)) }
        #expect(lua.stackTop == 0)
    }

    @Test func referencesOutliveTheirStateSafely() throws {
        var state: LuaState? = try LuaState()
        let t = try state?.newTable()
        state = nil
        #expect(throws: LuaError(.closed, "the Lua state is closed")) { try t?.get("x") }
    }
}
