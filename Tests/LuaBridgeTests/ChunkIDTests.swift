import Testing
@testable import LuaBridge

/// A chunk's name as Lua shows it is asked of Lua: what `chunkID` says is
/// the place in the chunk's own errors, for every kind of name.
@Suite("Chunk names as Lua shows them")
struct ChunkIDTests {
    @Test(arguments: ["@app.lua", "=stdin", "x = 1", "first line\nsecond", "@" + String(repeating: "dir/", count: 30) + "deep.lua",
                      "=" + String(repeating: "n", count: 100), String(repeating: "s", count: 100), "", "@"])
    func theIDIsThePlaceInTheChunksErrors(_ name: String) throws {
        let lua = try LuaState()
        let id = lua.chunkID(name)
        let chunk = try lua.load(bytes: Array("error('boom')".utf8), chunkName: name)
        do {
            _ = try chunk.call()
            Issue.record("no error")
        } catch let error as LuaError {
            #expect(error.message == "\(id):1: boom", "\(name.debugDescription) → \(id.debugDescription)")
        }
        #expect(id.utf8.count < 60)
    }

    @Test func aClosedStateGivesTheNameWithoutItsMark() throws {
        let lua = try LuaState()
        lua.close()
        #expect(lua.chunkID("@a.lua") == "a.lua" && lua.chunkID("=stdin") == "stdin")
    }
}
