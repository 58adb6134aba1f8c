import Testing
@testable import LuaBridge

/// Reading tables without references: `forEachEntry`'s lent slots, and
/// `rawGet(fields:)`'s one walk.
@Suite("Tables read in place")
struct InPlaceReadingTests {
    private func table(_ lua: LuaState, _ source: String) throws -> LuaTable {
        guard case .table(let table)? = try lua.run(source, name: "t").first else {
            throw LuaError(.typeMismatch, "no table")
        }
        return table
    }

    /// Each slot reads its own value: text (repaired or validated), integer,
    /// type, nil-ness and the full value; a number is not converted to text.
    @Test func slotsReadWhatTheyHold() throws {
        let lua = try LuaState()
        let t = try table(lua, "return { [1] = 'one', [2] = 2.5, name = 'x\\0y', bad = '\\255', flag = false }")
        var seen: [String: String] = [:]
        try t.forEachEntry { key, value in
            let name = key.text ?? "[\(key.integer.map(String.init) ?? "?")]"
            seen[name] = "\(value.type) text=\(value.text.map { Array($0.utf8).description } ?? "nil") "
                + "valid=\(value.validText != nil) int=\(value.integer.map(String.init) ?? "nil") value=\(value.value)"
        }
        #expect(seen["[1]"] == "string text=[111, 110, 101] valid=true int=nil value=\"one\"")
        #expect(seen["[2]"] == "number text=nil valid=false int=nil value=2.5")
        #expect(seen["name"] == "string text=[120, 0, 121] valid=true int=nil value=\"x\u{0}y\"")
        #expect(seen["bad"]?.hasPrefix("string text=[239, 191, 189] valid=false") == true)
        #expect(seen["flag"] == "boolean text=nil valid=false int=nil value=false")
        #expect(seen.count == 5)
        // A number key read as an integer stays a number (not turned into a string by lua_tolstring).
        let numbers = try table(lua, "return { [7] = 7 }")
        try numbers.forEachEntry { key, value in
            #expect(key.text == nil && key.integer == 7 && value.integer == 7)
            #expect(key.type == .number)
        }
        #expect(lua.stackTop == 0)
    }

    /// `object(as:)` finds the Swift object of the class asked for, by its
    /// exact class or a cast, and nothing in other values or other classes.
    @Test func slotsFindSwiftObjects() throws {
        final class Other {}
        let lua = try LuaState()
        let counter = LifeCounter()
        let t = try lua.newTable()
        try t.rawSet(.integer(1), .userdata(try lua.pushObject(Tracked(counter, "a"), type: "Tracked")))
        try t.rawSet(.integer(2), .userdata(try lua.pushObject(Other(), type: "Other")))
        try t.rawSet(.integer(3), "Tracked")
        try t.rawSet(.integer(4), .table(try lua.newTable()))
        var found: [Int: String] = [:]
        try t.forEachEntry { key, value in
            found[key.integer ?? 0] = value.object(as: Tracked.self)?.label
                ?? (value.object(as: AnyObject.self) != nil ? "some object" : "none")
        }
        #expect(found == [1: "a", 2: "some object", 3: "none", 4: "none"])
        #expect(counter.alive == 1)
        #expect(lua.stackTop == 0)
    }

    /// The walk stops at what the body throws and leaves the stack as it
    /// was; a table changed under it is an error, not Lua's `next` raising
    /// through Swift.
    @Test func aWalkStopsCleanlyAndATableChangedMidWalkIsAnError() throws {
        let lua = try LuaState()
        let t = try table(lua, "t = { a = 1, b = 2, c = 3, d = 4 } return t")
        struct Stop: Error {}
        var visited = 0
        #expect(throws: Stop.self) {
            try t.forEachEntry { _, _ in
                visited += 1
                if visited == 2 { throw Stop() }
            }
        }
        #expect(visited == 2)
        #expect(lua.stackTop == 0)
        #expect {
            try t.forEachEntry { key, _ in
                try lua.setGlobal("k", key.value)
                _ = try lua.run("t[k] = nil for i = 1, 64 do t['n' .. i] = i end", name: "change")
            }
        } throws: { error in
            "\(error)".contains("the table changed while it was read")
        }
        #expect(lua.stackTop == 0)
    }

    /// `rawGet(fields:)` gives each field's raw value in the fields' order
    /// and counts every pair — keys that are no field, numbers, and names
    /// that only start like a field or hold a NUL included — without
    /// running `__index`.
    @Test func fieldsAreReadInOneWalk() throws {
        let lua = try LuaState()
        let fields = ["make", "deps", "scope", "eager", "a\0b"].map(LuaFieldName.init)
        let t = try table(lua, """
            return setmetatable({ make = 'm', scope = 'singleton', [1] = 'x', mak = 1, makes = 2,
                                  ['make\\0'] = 3, [2.5] = 4, ['a\\0b'] = 'nul' },
                                { __index = function() return 'from __index' end })
            """)
        let (values, count) = try t.rawGet(fields: fields)
        #expect(values.map(\.description) == ["\"m\"", "nil", "\"singleton\"", "nil", "\"nul\""])
        #expect(count == 8)
        let empty = try lua.newTable()
        let (none, zero) = try empty.rawGet(fields: fields)
        #expect(none.allSatisfy(\.isNil) && none.count == fields.count && zero == 0)
        // Many pairs, none of them a field.
        let big = try table(lua, "local t = {} for i = 1, 5000 do t[i] = i; t['k' .. i] = i end return t")
        // A field named twice is found at both places.
        let (twice, two) = try table(lua, "return { make = 'm', deps = 'd' }").rawGet(fields: ["make", "deps", "make"].map(LuaFieldName.init))
        #expect(twice.map(\.description) == ["\"m\"", "\"d\"", "\"m\""] && two == 2)
        let (missing, total) = try big.rawGet(fields: fields)
        #expect(missing.allSatisfy(\.isNil) && total == 10_000)
        #expect(lua.stackTop == 0)
    }

    /// A slot's own walks: fields (a position past the list reads nil), its
    /// entries, and a value that is not a table is a type error, not a crash;
    /// a slot can be stored raw in a table of its state, not of another.
    @Test func slotsWalkTheirTablesAndAreStored() throws {
        let lua = try LuaState()
        let other = try LuaState()
        let t = try table(lua, "return { make = print, deps = { a = 'A' } }")
        let keep = try lua.newTable()
        let foreign = try other.newTable()
        try t.withSlot { body in
            try body.withFields(["deps", "make"].map(LuaFieldName.init)) { found in
                #expect(found.entryCount == 2 && found.present == 2)
                #expect(found[0].type == .table && found[1].type == .function && found[2].isNil && found[-1].isNil)
                var deps: [String] = []
                try found[0].forEachEntry { key, value in deps.append("\(key.text ?? "?")=\(value.text ?? "?")") }
                #expect(deps == ["a=A"])
                #expect(throws: LuaError.self) { try found[1].forEachEntry { _, _ in } }
                #expect(throws: LuaError.self) { try found[1].withFields([]) { _ in 0 } }
                try keep.rawSet(.integer(1), found[1])
                // Keys Lua refuses are errors here, not Lua raising through Swift (it aborted the process).
                #expect(throws: LuaError.self) { try keep.rawSet(.nil, found[1]) }
                #expect(throws: LuaError.self) { try keep.rawSet(.number(.nan), found[1]) }
                #expect(throws: LuaError.self) { try foreign.rawSet(.integer(1), found[1]) }
            }
        }
        #expect(try keep.rawGet(.integer(1)).type == .function)
        #expect(try foreign.rawGet(.integer(1)).isNil)
        #expect(lua.stackTop == 0 && other.stackTop == 0)
    }

    /// A frame lends its arguments in place, and none past the last.
    @Test func aFrameLendsItsArguments() throws {
        let lua = try LuaState()
        try lua.registerFrame("probe") { frame in
            frame.push("\(frame.slot(1)?.text ?? "-") \(frame.slot(2)?.integer.map(String.init) ?? "-") \(frame.slot(3) == nil) \(frame.slot(0) == nil)")
            return 1
        }
        #expect(try lua.run("return probe('a', 2)", name: "p").first == "a 2 true true")
    }

    /// A Lua string's literal spells its bytes exactly, text or not.
    @Test func aLiteralSpellsTheBytes() {
        #expect(LuaString(bytes: Array("plain".utf8)).literal == "\"plain\"")
        #expect(LuaString(bytes: [0x64, 0xE9, 0x22, 0x5C, 0x0A, 0x00, 0x7F]).literal == #""d\233\"\\\10\0\127""#)
        #expect(LuaString(bytes: []).literal == "\"\"")
    }
}
