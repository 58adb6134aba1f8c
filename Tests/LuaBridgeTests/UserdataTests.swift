import Foundation
import Testing
@testable import LuaBridge

@Suite("Swift objects in Lua: retained once, released once")
struct UserdataTests {
    @Test func gcReleasesTheSwiftObject() throws {
        let counter = LifeCounter()
        let lua = try LuaState()
        do {
            let ud = try lua.pushObject(Tracked(counter, "a"), type: "Tracked")
            try lua.setGlobal("obj", .userdata(ud))
            #expect(ud.object(as: Tracked.self)?.label == "a")
            #expect(ud.typeName == "Tracked")
        }
        #expect(counter.alive == 1)
        try lua.run("obj = nil", name: "drop")
        lua.collectGarbage()
        #expect(counter.alive == 0)
        #expect(counter.released == 1)
    }

    @Test func tenThousandUserdataAreCreatedAndCollected() throws {
        let counter = LifeCounter()
        let lua = try LuaState()
        try lua.register("make") { call in
            [.userdata(try call.state.pushObject(Tracked(counter), type: "Tracked"))]
        }
        try lua.run("local keep = {} for i = 1, 10000 do keep[i] = make() end", name: "many")
        lua.collectGarbage()
        #expect(counter.released == 10000)
        #expect(counter.alive == 0)
    }

    @Test func closeReleasesEverythingStillHeld() throws {
        let counter = LifeCounter()
        let lua = try LuaState()
        try lua.register("make") { call in
            [.userdata(try call.state.pushObject(Tracked(counter), type: "Tracked"))]
        }
        try lua.run("held = {} for i = 1, 100 do held[i] = make() end", name: "hold")
        #expect(counter.alive == 100)
        lua.close()
        #expect(counter.alive == 0)
        #expect(lua.isClosed)
        #expect(throws: LuaError(.closed, "the Lua state is closed")) { try lua.run("return 1", name: "x") }
    }

    /// The close of a process about to exit ends it from the state's last
    /// finalizer, before Lua frees its heap: by then every other finalizer
    /// has run and every Swift object is released — Lua finalizers that
    /// allocate (and grow tables) included, also under a memory limit's
    /// counting allocator, and finalizers made after the standard library's
    /// own (its file handles close first).
    @Test(arguments: [nil, 64 << 20] as [Int?])
    func theLastFinalizerOfACloseRunsAfterEveryOther(memoryLimit: Int?) throws {
        let counter = LifeCounter()
        let lua = try LuaState()
        lua.memoryLimit = memoryLimit
        try lua.register("make") { call in
            [.userdata(try call.state.pushObject(Tracked(counter), type: "Tracked"))]
        }
        // Swift functions are not called while a state closes: the finalizers write a file.
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("close-before-exit-\(UUID().uuidString).txt").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        try lua.setGlobal("path", LuaValue(log))
        try lua.run("""
            held = {} for i = 1, 100 do held[i] = make() end
            unclosed = assert(io.open(path, "a"))   -- its __gc closes it: the last line below is flushed by then
            lines = {}
            for i = 1, 3 do
              setmetatable({}, { __gc = function()
                for j = 1, 1000 do lines[#lines + 1] = string.rep("x", j) end   -- grows and reallocates
                local file = assert(io.open(path, "a"))
                file:write("finalized ", i, " after ", #lines, "\\n")
                file:close()
              end })
            end
            unclosed:write("buffered\\n")
            """, name: "hold")
        #expect(counter.alive == 100)
        var seen: (alive: Int, written: String?, calls: Int) = (-1, nil, 0)
        lua.close(afterFinalizers: {
            seen.calls += 1
            seen.alive = counter.alive
            seen.written = try? String(contentsOfFile: log, encoding: .utf8)
        })
        #expect(seen.calls == 1)
        #expect(seen.alive == 0)
        #expect(counter.released == 100)
        #expect(seen.written == "finalized 3 after 1000\nfinalized 2 after 2000\nfinalized 1 after 3000\nbuffered\n")
        #expect(lua.isClosed)
    }

    /// A plain close calls nothing after its finalizers, and a state closed
    /// with a call pending does not call it twice.
    @Test func closingWithoutAnAfterFinalizersCallCallsNone() throws {
        var calls = 0
        let lua = try LuaState()
        lua.close()
        lua.close(afterFinalizers: { calls += 1 })   // already closed: nothing runs
        #expect(calls == 0)
    }

    @Test func swiftClosuresAreReleasedWithTheirFunction() throws {
        let counter = LifeCounter()
        let lua = try LuaState()
        do {
            let captured = Tracked(counter)
            let f = try lua.function("f") { _ in _ = captured; return [] }
            try lua.setGlobal("f", .function(f))
        }
        try lua.run("f() f = nil", name: "drop")
        lua.collectGarbage()
        #expect(counter.alive == 0)
    }

    @Test func metatablesAreHiddenFromScripts() throws {
        let lua = try LuaState()
        try lua.setGlobal("obj", .userdata(lua.pushObject(Tracked(LifeCounter()), type: "Tracked")))
        try lua.setGlobal("fn", .function(lua.function("fn") { _ in [] }))
        #expect(try lua.run("return getmetatable(obj), getmetatable(fn)", name: "peek") == [false, .nil])
        let error = try #require(expectLuaError(lua, "setmetatable(obj, {})", name: "poke.lua"))
        #expect(error.message.contains("bad argument #1 to 'setmetatable' (table expected, got Tracked)"))
        #expect(expectLuaError(lua, "debug.setmetatable(obj, nil) collectgarbage() return 1") == nil)
    }

    @Test func objectOfTheWrongTypeReadsAsNil() throws {
        let lua = try LuaState()
        let ud = try lua.pushObject(Tracked(LifeCounter()), type: "Tracked")
        #expect(ud.object(as: LifeCounter.self) == nil)
        #expect(ud.object(as: Tracked.self) != nil)
    }

    @Test func finalizerThatResurrectsAnObjectCannotReleaseItTwice() throws {
        let counter = LifeCounter()
        let lua = try LuaState()
        try lua.setGlobal("obj", .userdata(lua.pushObject(Tracked(counter), type: "Tracked")))
        // A table whose __gc stores the (already finalized) userdata somewhere alive.
        try lua.run("""
            local holder = setmetatable({ref = obj}, {__gc = function(h) revived = h.ref end})
            obj, holder = nil, nil
            collectgarbage() collectgarbage()
            """, name: "revive")
        lua.collectGarbage()
        lua.close()
        #expect(counter.released == 1)
        #expect(counter.alive == 0)
    }

    /// A userdata's type name is its own, whichever type came before (the
    /// last name is reused only while it is the same).
    @Test func typeNamesFollowEachUserdata() throws {
        let lua = try LuaState()
        let counter = LifeCounter()
        for type in ["Tracked", "Tracked", "factoryhost.registration.long", "Other", "Tracked"] {
            let ud = try lua.pushObject(Tracked(counter), type: type)
            #expect(ud.typeName == type)
        }
    }

    /// `forEachPair` sees every pair once, as `pairs()` does, lets each go
    /// before the next, and leaves the stack as it was, also when its body throws.
    @Test func forEachPairVisitsEveryPairAndKeepsTheStack() throws {
        let lua = try LuaState()
        let counter = LifeCounter()
        guard case .table(let table)? = try lua.run("return { 'a', 'b', x = 1, y = true, [2.5] = 'z' }", name: "t").first else {
            Issue.record("no table")
            return
        }
        var seen: [String] = []
        try table.forEachPair { key, value in seen.append("\(key)=\(value)") }
        #expect(seen.sorted() == (try table.pairs()).map { "\($0.key)=\($0.value)" }.sorted())
        #expect(seen.count == 5)
        struct Stop: Error {}
        var visited = 0
        #expect(throws: Stop.self) {
            try table.forEachPair { _, _ in
                visited += 1
                if visited == 2 { throw Stop() }
            }
        }
        #expect(visited == 2)
        #expect(lua.stackTop == 0)
        // Userdata values: each reference is let go before the next pair.
        let many = try lua.newTable()
        for i in 1...100 { try many.rawSet(.integer(i), .userdata(try lua.pushObject(Tracked(counter), type: "Tracked"))) }
        var live = 0
        try many.forEachPair { _, value in
            if case .userdata(let ud) = value, ud.object(as: Tracked.self) != nil { live += 1 }
        }
        #expect(live == 100)
        #expect(lua.stackTop == 0)
    }

    /// A table changed while Swift walks it (as a finalizer run by an
    /// allocation between two steps could) is a thrown error, not Lua's
    /// `next` raising through Swift frames; and the walk leaves the collector
    /// alone (stopping and restarting it per walk started a collection cycle
    /// after every table read).
    @Test func aTableChangedMidWalkIsAnErrorAndTheCollectorRuns() throws {
        let lua = try LuaState()
        guard case .table(let table)? = try lua.run("t = { a = 1, b = 2, c = 3, d = 4 } return t", name: "t").first else {
            Issue.record("no table")
            return
        }
        var running: [Bool] = []
        #expect {
            try table.forEachPair { key, _ in
                running.append(try lua.run("return collectgarbage('isrunning')", name: "r").first == .boolean(true))
                // Remove the key the walk stands on, and grow the table so it is rehashed without it.
                try lua.setGlobal("k", key)
                _ = try lua.run("t[k] = nil for i = 1, 64 do t['n' .. i] = i end", name: "change")
            }
        } throws: { error in
            "\(error)".contains("the table changed while it was read")
        }
        #expect(running == [true])
        #expect(lua.stackTop == 0)
        let returned = try lua.run("u = { a = 1, b = 2 } return u", name: "u").first
        guard case .table(let other)? = returned else {
            Issue.record("the chunk returned \(String(describing: returned)), not a table")
            return
        }
        #expect(throws: LuaError.self) {
            _ = try other.forEachPair { key, _ in
                try lua.setGlobal("k", key)
                _ = try lua.run("u[k] = nil for i = 1, 64 do u['n' .. i] = i end", name: "change")
            }
        }
        #expect(try other.pairs().count == 65)
        #expect(lua.stackTop == 0)
    }
}
