import Testing
@testable import LuaBridge

/// Error values that are not text survive Swift: kept under an id, raised
/// again as they were, or as the cause of an error object.
@Suite("Error values that are not text are kept, not flattened")
struct ErrorValueTests {
    let lua: LuaState
    init() throws { lua = try LuaState() }

    private func isKept(_ id: Int) throws -> Bool {
        if case .some = try lua.errorValue(id) { return true }
        return false
    }

    @Test func aTableErrorIsKeptAndTextIsNot() throws {
        let table = try #require(expectLuaError(lua, "error({ code = 42 })"))
        let id = try #require(table.errorValueID)
        guard case .table(let value)? = try lua.errorValue(id) else {
            Issue.record("the table was not kept")
            return
        }
        #expect(try value.get("code") == .integer(42))
        for text in ["error('boom')", "error(42)", "error(nil)", "local x = nil + 1"] {
            #expect(expectLuaError(lua, text)?.errorValueID == nil, "\(text)")
        }
        #expect(try #require(expectLuaError(lua, "error(false)")).errorValueID != nil)
        #expect(lua.stackTop == 0)
    }

    /// A Lua function's error that crosses a Swift function goes on as the
    /// same value (it was "(error object is a table value)").
    @Test func aSwiftFunctionPassesTheValueOnUnchanged() throws {
        try lua.registerFrame("call") { f in
            guard case .function(let callback) = f.value(1) else { return 0 }
            _ = try callback.call()
            return 0
        }
        let result = try lua.run("""
            local original = { code = 7 }
            local ok, err = pcall(call, function() error(original) end)
            return ok, err == original, err.code
            """, name: "pass.lua")
        #expect(result == [false, true, 7])
    }

    /// An error that carries a kept value raises an error object: its
    /// message (with the caller's place) and the value as `cause`; its
    /// metatable is hidden, and keeping it again keeps the cause.
    @Test func aCarryingErrorRaisesAnErrorObject() throws {
        struct Failed: LuaErrorValueCarrying, CustomStringConvertible {
            let luaErrorValueID: Int?
            var description: String { "it failed" }
        }
        // Each call fails with a value kept anew (a kept value is let go once raised).
        try lua.registerFrame("fails") { f in
            let id: Int? = try { () throws -> Int? in
                do { try f.state.run("error({ code = 5 })", name: "inner") } catch let error as LuaError { return error.errorValueID }
                return nil
            }()
            throw Failed(luaErrorValueID: id)
        }
        let result = try lua.run("""
            local ok, err = pcall(function() fails() end)
            return type(err), err.message, err.cause.code, tostring(err) == err.message, getmetatable(err)
            """, name: "object.lua")
        #expect(result == ["table", "object.lua:1: it failed", 5, true, false])
        // Raised again and caught in Swift: the value kept is the cause, not the wrapper.
        let again = try #require(expectLuaError(lua, "fails()", name: "again.lua"))
        #expect(again.message == "again.lua:1: it failed")
        guard case .table(let cause)? = try lua.errorValue(try #require(again.errorValueID)) else {
            Issue.record("no cause kept")
            return
        }
        #expect(try cause.get("code") == .integer(5))
        // Once raised into Lua, the state lets the value go: the script holds it.
        let raised = try #require(expectLuaError(lua, "error({ code = 6 })")?.errorValueID)
        try lua.registerFrame("failsOnce") { _ in throw Failed(luaErrorValueID: raised) }
        _ = try lua.run("pcall(failsOnce)", name: "once.lua")
        #expect(try !isKept(raised))
        #expect(try lua.run("return select(2, pcall(failsOnce))", name: "twice.lua") == ["it failed"])
        // No id: the description, as any error.
        try lua.registerFrame("plain") { _ in throw Failed(luaErrorValueID: nil) }
        #expect(try lua.run("return select(2, pcall(plain))", name: "p.lua") == ["it failed"])
    }

    /// A state keeps the newest 32 values; an id let go raises the message.
    @Test func onlyTheNewestAreKept() throws {
        let first = try #require(expectLuaError(lua, "error({ 1 })")?.errorValueID)
        var last = first
        for _ in 0..<32 { last = expectLuaError(lua, "error({})")?.errorValueID ?? 0 }
        #expect(last == first + 32)          // ids go on past the number kept (the 33rd was 1 again)
        #expect(try !isKept(first) && isKept(first + 1) && isKept(last))
        try lua.registerFrame("late") { _ in throw LuaError(.runtime, "gone", traceback: nil, valueType: "table",
                                                         raisedByLua: true, errorValueID: first) }
        #expect(try lua.run("return select(2, pcall(late))", name: "late.lua") == ["gone"])
        #expect(try !isKept(0) && !isKept(-1) && !isKept(last + 1))
    }
}
