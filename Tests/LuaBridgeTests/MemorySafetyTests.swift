import CLua
import CLuaShim
import Foundation
import Testing
@testable import LuaBridge

/// Each of these crashed, corrupted the registry or raised through Swift
/// frames before its fix (run them under Scripts/sanitize.sh to see more).
@Suite("The bridge stays memory-safe at its edges")
struct MemorySafetyTests {
    /// A Swift object whose deinit closes the state that held it.
    final class Closer: LuaExportable {
        static let luaTypeName = "Closer"
        weak var state: LuaState?
        init(_ state: LuaState) { self.state = state }
        deinit { state?.close() }
    }

    @Test func aCloseAskedForDuringAFastCallHappensAfterTheStackIsReset() throws {
        let lua = try LuaState()
        try lua.registerFrame("closeNow") { [unowned lua] _ in lua.close(); return 0 }
        let f = try lua.run("return function(x) closeNow() return x end", name: "t")[0].function()
        let result = try f.call(pushing: { frame in frame.push(7); return 1 }, reading: { frame, at in try frame.integer(at) })
        #expect(result == 7)
        #expect(lua.isClosed)
    }

    @Test func aPushingCountThatIsNotWhatWasPushedIsAnError() throws {
        let lua = try LuaState()
        let f = try lua.run("return function(...) return select('#', ...) end", name: "t")[0].function()
        #expect(throws: LuaError.self) {
            try f.call(pushing: { frame in frame.push(1); return 3 }, reading: { frame, at in try frame.integer(at) })
        }
        let right = try f.call(pushing: { frame in frame.push(1); frame.push(2); return 2 }, reading: { frame, at in try frame.integer(at) })
        #expect(right == 2)
        #expect(lua.stackTop == 0)
    }

    @Test func setFieldIsRawSoAMetamethodCannotRaiseThroughSwift() throws {
        let lua = try LuaState()
        try lua.registerFrame("fill") { frame in
            frame.push(42)
            frame.setField("answer", inTableAt: 1)
            frame.push(1)
            frame.setField(LuaFieldName("with\0nul"), inTableAt: 1)
            return 0
        }
        let out = try lua.run("""
            local t = setmetatable({}, { __newindex = function() error("no writes") end })
            fill(t)
            return rawget(t, "answer"), rawget(t, "with\\0nul")
            """, name: "t")
        #expect(out == [.integer(42), .integer(1)])
    }

    @Test func aReferenceDroppedOnAnotherThreadIsFreedByTheOwnersNextCall() throws {
        let lua = try LuaState()
        var reference: LuaTable? = try lua.newTable()
        let slot = try #require(reference?.ref)
        let box = UncheckedBox(reference)
        reference = nil
        let thread = Thread { box.value = nil }      // the last reference dies there
        thread.start()
        while !thread.isFinished { usleep(1_000) }
        // That thread did not touch the registry: the slot is still taken...
        let early = try lua.newTable()
        #expect(early.ref != slot, "the other thread freed the slot itself")
        #expect(try lua.run("return 1", name: "t") == [.integer(1)])   // drains the queue
        let reused = [try lua.newTable(), try lua.newTable(), try lua.newTable()]
        #expect(reused.contains { $0.ref == slot }, "the slot was freed and is reused")
    }

    @Test func aCloseFromAFinalizerWaitsUntilTheCollectorIsDone() throws {
        let lua = try LuaState()
        let closerType = try lua.metatableReference(for: Closer.luaTypeName)
        try lua.registerFrame("makeCloser") { [unowned lua] frame in
            frame.pushObject(Closer(lua), metatable: closerType)
            return 1
        }
        try lua.run("makeCloser()", name: "t")       // the object is garbage now
        // Allocate from Swift (depth 0) until the collector finalizes it.
        for _ in 0..<200_000 where !lua.isClosed {
            _ = try? lua.newTable(arrayCapacity: 4)
        }
        _ = try? lua.run("return 1", name: "after")
        lua.collectGarbage()
        _ = try? lua.run("return 1", name: "after")
        #expect(lua.isClosed)
    }

    @Test func aMetatableReferenceNeverPointsIntoAnotherState() throws {
        var first: LuaState? = try LuaState()
        let stale = try #require(try first?.metatableReference(for: "Thing"))
        first = nil
        for _ in 0..<8 {                               // the next states may reuse its address
            let lua = try LuaState()
            try lua.registerFrame("make") { frame in
                frame.pushObject(Closer(lua), metatable: stale)
                return 1
            }
            let out = try lua.run("local o = make() return tostring(o):match('^%a+')", name: "t")
            #expect(out == ["Thing"])
            #expect(stale.state != lua.serial)
        }
    }
}

final class UncheckedBox<T>: @unchecked Sendable {
    var value: T
    init(_ value: T) { self.value = value }
}
