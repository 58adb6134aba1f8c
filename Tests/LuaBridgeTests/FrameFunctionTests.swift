import Testing
@testable import LuaBridge

@Suite("Frame-based Swift functions read and push on the Lua stack")
struct FrameFunctionTests {
    let lua: LuaState
    init() throws { lua = try LuaState() }

    @Test func readsTypedArgumentsAndPushesResults() throws {
        try lua.registerFrame("describe") { f in
            f.push(try f.integer(1) * 2)
            f.push(try f.number(2) / 2)
            f.push(try f.string(3) + "!")
            f.push(!(try f.boolean(4)))
            f.pushNil()
            try f.push(f.value(5))
            f.push(Int(f.count))
            return 7
        }
        let out = try lua.run("return describe(21, 3, 'hi', false, {1})", name: "d.lua")
        #expect(out.count == 7)
        #expect(Array(out.prefix(5)) == [.integer(42), .number(1.5), "hi!", true, .nil])
        #expect(out[6] == .integer(5))
        #expect(try out[5].table().array() == [.integer(1)])
        #expect(lua.stackTop == 0)
    }

    @Test func wrongArgumentsReadLikeLuaAuxlib() throws {
        try lua.registerFrame("needs") { f in
            _ = try f.integer(1)
            _ = try f.string(2)
            return 0
        }
        #expect(expectLuaError(lua, "needs('x', 'y')", name: "n.lua")?.message
            == "n.lua:1: bad argument #1 to 'needs' (integer expected, got string)")
        #expect(expectLuaError(lua, "needs(1.5, 'y')", name: "n.lua")?.message
            == "n.lua:1: bad argument #1 to 'needs' (number has no integer representation)")
        #expect(expectLuaError(lua, "needs(1)", name: "n.lua")?.message
            == "n.lua:1: bad argument #2 to 'needs' (string expected, got no value)")
        #expect(expectLuaError(lua, "needs(1, 2.5)", name: "n.lua")?.message
            == "n.lua:1: bad argument #2 to 'needs' (string expected, got float)")
        #expect(expectLuaError(lua, "needs(1, '\\255')", name: "n.lua")?.message
            == "n.lua:1: bad argument #2 to 'needs' (string is not valid UTF-8)")
        #expect(try lua.run("needs(4.0, 'ok') return 1", name: "ok") == [.integer(1)])
    }

    @Test func objectsAreCheckedByType() throws {
        let counter = LifeCounter()
        try lua.registerFrame("label") { f in
            f.push(try f.object(1, as: Tracked.self, typeName: "Tracked").label)
            return 1
        }
        try lua.setGlobal("t", .userdata(lua.pushObject(Tracked(counter, "tracked one"), type: "Tracked")))
        #expect(try lua.run("return label(t)", name: "o") == ["tracked one"])
        #expect(expectLuaError(lua, "label(io.stdout)", name: "o.lua")?.message
            == "o.lua:1: bad argument #1 to 'label' (Tracked expected, got FILE*)")
        #expect(expectLuaError(lua, "label({})", name: "o.lua")?.message
            == "o.lua:1: bad argument #1 to 'label' (Tracked expected, got table)")
    }

    @Test func claimingMoreResultsThanPushedIsAnError() throws {
        try lua.registerFrame("liar") { _ in 3 }
        #expect(expectLuaError(lua, "liar()", name: "l.lua")?.message == "l.lua:1: 'liar' reported 3 results but pushed 0")
        #expect(lua.stackTop == 0)
    }
}
