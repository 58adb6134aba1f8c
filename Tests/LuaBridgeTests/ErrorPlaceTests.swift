import Testing
@testable import LuaBridge

/// An error's place travels as data (`LuaError.place`): verified against the
/// frames at the raise, or given by Swift — never read back out of text that
/// merely looks like a place.
@Suite("Errors carry their place")
struct ErrorPlaceTests {
    let lua: LuaState
    init() throws { lua = try LuaState() }

    @Test func aScriptErrorHasItsPlace() throws {
        let error = try #require(expectLuaError(lua, "local x = 1\nerror('boom')", name: "app.lua"))
        #expect(error.place == LuaError.Place(prefix: "app.lua:2:"))
        #expect(error.place?.file == "app.lua" && error.place?.line == 2)
        #expect(error.messageAfterPlace == "boom")
        let runtime = try #require(expectLuaError(lua, "\n\nlocal t = nil; return t.x", name: "r.lua"))
        #expect(runtime.place?.description == "r.lua:3" && runtime.messageAfterPlace.hasPrefix("attempt to index a nil value"))
    }

    /// Text that looks like a place is not one (it was split off as if it were).
    @Test func textThatLooksLikeAPlaceIsNotOne() throws {
        let error = try #require(expectLuaError(lua, "error('elsewhere.lua:12: not a place', 0)", name: "app.lua"))
        #expect(error.place == nil)
        #expect(error.messageAfterPlace == "elsewhere.lua:12: not a place")
        let value = try #require(expectLuaError(lua, "error({ code = 1 })", name: "app.lua"))
        #expect(value.place == nil)
    }

    /// A Swift function's error is placed at its caller; LuaRaise can name a place; both survive a re-raise.
    @Test func swiftErrorsArePlacedAtTheirCallerOrWhereTheySay() throws {
        try lua.registerFrame("fails") { _ in throw LuaError(.runtime, "refused") }
        let atCaller = try #require(expectLuaError(lua, "\nfails()", name: "call.lua"))
        #expect(atCaller.place?.description == "call.lua:2" && atCaller.messageAfterPlace == "refused")
        try lua.registerFrame("declares") { _ in throw LuaRaise("duplicate key", file: "config.lua", line: 7) }
        let declared = try #require(expectLuaError(lua, "declares()", name: "main.lua"))
        #expect(declared.place?.description == "config.lua:7" && declared.messageAfterPlace == "duplicate key")
        // Raised through a Swift function that called Lua (its place travels with it).
        try lua.registerFrame("relay") { frame in
            _ = try frame.state.run("\n\n\nerror('inner')", name: "inner.lua")
            return 0
        }
        let relayed = try #require(expectLuaError(lua, "relay()", name: "outer.lua"))
        #expect(relayed.place?.description == "inner.lua:4" && relayed.messageAfterPlace == "inner")
    }

    @Test func aSyntaxErrorHasItsChunksPlace() throws {
        let error = try #require(expectLuaError(lua, "x = 1\nx = = 2", name: "bad.lua"))
        #expect(error.kind == .syntax)
        #expect(error.place?.description == "bad.lua:2" && error.messageAfterPlace.hasPrefix("unexpected symbol"))
    }
}
