import Testing
@testable import LuaBridge

/// An exported class open to subclassing.
class Shelf: LuaExportable {
    static let luaTypeName = "Shelf"
    var entries: [Int: String] = [:]
}

/// A subclass: its objects carry their own class, so they take the slow,
/// checked path where the trampoline's exact-class check says no.
final class TitledShelf: Shelf {
    let title: String
    init(title: String) { self.title = title }
}

@Suite("Fast paths into Swift agree with the checked paths")
struct FastPathTests {
    @Test func methodReceiversAreCheckedExactlyOrBySubclassOrRefused() throws {
        let lua = try LuaState()
        try lua.setGlobal("Cache", .table(LuaClass<Shelf>().constructor { Shelf() }
            .method("size") { $0.entries.count }
            .method("put") { (cache, id: Int, title: String) in cache.entries[id] = title }
            .install(in: lua)))
        try lua.setGlobal("HTTPSession", .table(LuaClass<HTTPSession>().constructor { (host: String) in HTTPSession(host: host) }
            .install(in: lua)))
        // A subclass instance pushed as its base type reaches the methods through the checked path.
        let titled = TitledShelf(title: "t")
        try lua.setGlobal("titled", .userdata(lua.pushObject(titled, type: "Shelf")))
        #expect(try lua.run("titled:put(1, 'one') return titled:size(), Cache.new():size()", name: "ok") == [1, 0])
        #expect(titled.entries == [1: "one"])
        // Another exported class, a table, nothing: each is a bad argument #1 naming what came.
        let other = try #require(expectLuaError(lua, "local c = Cache.new() c.size(HTTPSession.new('h'))", name: "o.lua"))
        #expect(other.message == "o.lua:1: bad argument #1 to 'Shelf:size' (Shelf expected, got HTTPSession)")
        let table = try #require(expectLuaError(lua, "local c = Cache.new() c.size({})", name: "t.lua"))
        #expect(table.message == "t.lua:1: bad argument #1 to 'Shelf:size' (Shelf expected, got table)")
        let none = try #require(expectLuaError(lua, "local c = Cache.new() c.size()", name: "n.lua"))
        #expect(none.message == "n.lua:1: bad argument #1 to 'Shelf:size' (Shelf expected, got no value)")
        // Arguments after the receiver are still checked on the fast path.
        let second = try #require(expectLuaError(lua, "Cache.new():put('x', 'y')", name: "s.lua"))
        // Called as a method, self is not counted (lua5.4's convention: ("x"):rep({}) is "bad argument #1 to 'rep'").
        #expect(second.message == "s.lua:1: bad argument #1 to 'Shelf:put' (integer expected, got string)")
        let badSelf = try #require(expectLuaError(lua, "local c = Cache.new() local t = { size = c.size } t:size()", name: "b.lua"))
        #expect(badSelf.message == "b.lua:1: calling 'Shelf:size' on bad self (Shelf expected, got table)")
    }

    @Test func objectArgumentsOfExactlyTheTypeOrASubclassAreAccepted() throws {
        let lua = try LuaState()
        try lua.setGlobal("count", .function(lua.frameFunction("count") { f in
            f.push(try f.object(1, as: Shelf.self, typeName: "Shelf").entries.count)
            return 1
        }))
        let plain = Shelf(), titled = TitledShelf(title: "t")
        plain.entries = [1: "a"]
        titled.entries = [1: "a", 2: "b"]
        try lua.setGlobal("plain", .userdata(lua.pushObject(plain, type: "Shelf")))
        try lua.setGlobal("titled", .userdata(lua.pushObject(titled, type: "Shelf")))
        try lua.setGlobal("relabelled", .userdata(lua.pushObject(plain, type: "Bookcase")))
        #expect(try lua.run("return count(plain), count(titled)", name: "ok") == [1, 2])
        // The fast check is the Swift class: an object of that class is one,
        // whatever name it was pushed under; anything else is refused.
        #expect(try lua.run("return count(relabelled)", name: "r") == [1])
        let foreign = try #require(expectLuaError(lua, "count(io.stdout)", name: "f.lua"))
        #expect(foreign.message == "f.lua:1: bad argument #1 to 'count' (Shelf expected, got FILE*)")
    }

    @Test func metatableReferencesPushObjectsOfTheirTypeAndWorkAcrossStatesByName() throws {
        let lua = try LuaState(), other = try LuaState()
        let cacheType = try lua.metatableReference(for: "Cache")
        #expect(cacheType.typeName == "Cache")
        try lua.setGlobal("Cache", .table(LuaClass<Cache>().method("size") { $0.entries.count }.install(in: lua)))
        try other.setGlobal("Cache", .table(LuaClass<Cache>().method("size") { $0.entries.count }.install(in: other)))
        for state in [lua, other] {
            try state.setGlobal("make", .function(state.frameFunction("make") { f in
                f.pushObject(Cache(), metatable: cacheType)   // made for `lua`; `other` finds its own by name
                return 1
            }))
            #expect(try state.run("local c = make() return c:size(), tostring(c):match('^Cache: ') ~= nil", name: "m") == [0, true])
        }
    }

    @Test func fieldNamesKeepEveryByte() throws {
        let lua = try LuaState()
        let names = [LuaFieldName("plain"), LuaFieldName("with\0nul"), LuaFieldName("ünï")]
        try lua.setGlobal("fill", .function(lua.frameFunction("fill") { f in
            f.pushNewTable()
            for (index, name) in names.enumerated() {
                f.push(index + 1)
                f.setField(name, inTableAt: -2)
            }
            return 1
        }))
        #expect(try lua.run("local t = fill() return t.plain, t['with\\0nul'], t['with'], t['ünï']", name: "f")
            == [1, 2, .nil, 3])
    }

    @Test func aReleasedObjectIsNoReceiver() throws {
        let lua = try LuaState()
        try lua.setGlobal("Cache", .table(LuaClass<Cache>().constructor { Cache() }
            .method("size") { $0.entries.count }.install(in: lua)))
        // Run __gc by hand (the debug library reaches the hidden metatable), then use the object.
        let error = try #require(expectLuaError(lua, """
            local c = Cache.new()
            debug.getmetatable(c).__gc(c)
            return c:size()
            """, name: "r.lua"))
        #expect(error.message == "r.lua:3: calling 'Cache:size' on bad self (Cache expected, got a released Cache (its finalizer has run))")
    }
}
