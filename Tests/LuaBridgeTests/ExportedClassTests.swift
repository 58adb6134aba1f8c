import Testing
@testable import LuaBridge

final class Cache: LuaExportable {
    static let luaTypeName = "Cache"
    var entries: [Int: String] = [:]
}

final class HTTPSession: LuaExportable {
    static let luaTypeName = "HTTPSession"
    let host: String
    init(host: String) { self.host = host }
}

final class MovieLoader: LuaExportable {
    static let luaTypeName = "MovieLoader"
    let cache: Cache, session: HTTPSession
    var label = "loader"
    var tags: [String] = []
    var loads = 0
    let counter: LifeCounter?
    init(cache: Cache, session: HTTPSession, counter: LifeCounter? = nil) {
        self.cache = cache
        self.session = session
        self.counter = counter
        counter?.born()
    }
    deinit { counter?.died() }
    func load(_ id: Int) -> String {
        loads += 1
        return cache.entries[id] ?? "\(session.host)/movies/\(id)"
    }
}

@Suite("Exported Swift classes in Lua")
struct ExportedClassTests {
    let lua: LuaState
    let counter = LifeCounter()

    init() throws {
        lua = try LuaState()
        let counter = self.counter
        let net = try lua.newTable()
        try net.rawSet("Cache", .table(LuaClass<Cache>().constructor { Cache() }.install(in: lua)))
        try net.rawSet("HTTPSession", .table(LuaClass<HTTPSession>()
            .constructor { (host: String) in HTTPSession(host: host) }
            .namedConstructor { args in HTTPSession(host: try args.required("host")) }
            .property("host") { $0.host }
            .install(in: lua)))
        try net.rawSet("MovieLoader", .table(LuaClass<MovieLoader>()
            .constructor { (cache: Cache, session: HTTPSession) in MovieLoader(cache: cache, session: session, counter: counter) }
            .method("load") { (loader, id: Int) in loader.load(id) }
            .method("remember") { (loader, id: Int, title: String) in loader.cache.entries[id] = title; return true }
            .property("loads") { $0.loads }
            .property("cache") { $0.cache }
            .property("label", get: { $0.label }, set: { $0.label = $1 })
            .property("tags", get: { $0.tags }, set: { $0.tags = $1 })
            .tostring { "MovieLoader(\($0.label))" }
            .install(in: lua)))
        try lua.setGlobal("net", .table(net))
    }

    @Test func constructorsMethodsAndProperties() throws {
        let out = try lua.run("""
            local loader = net.MovieLoader.new(net.Cache.new(), net.HTTPSession.new("api.example"))
            local first = loader:load(7)
            loader:remember(7, "Stalker")
            loader.label = "home screen"
            return first, loader:load(7), loader.loads, loader.label, tostring(loader), loader.cache ~= nil
            """, name: "use.lua")
        #expect(out == ["api.example/movies/7", "Stalker", .integer(2), "home screen", "MovieLoader(home screen)", true])
        let named = try lua.run("return net.HTTPSession.new { host = 'named.example' }.host", name: "named.lua")
        #expect(named == ["named.example"])
    }

    @Test func wrongArgumentsNameTheFunctionPositionAndTypes() throws {
        #expect(expectLuaError(lua, "net.MovieLoader.new(net.Cache.new(), 'x')", name: "a.lua")?.message
            == "a.lua:1: bad argument #2 to 'MovieLoader.new' (HTTPSession expected, got string)")
        #expect(expectLuaError(lua, "net.MovieLoader.new(net.HTTPSession.new('h'), net.HTTPSession.new('h'))", name: "a.lua")?.message
            == "a.lua:1: bad argument #1 to 'MovieLoader.new' (Cache expected, got HTTPSession)")
        let setup = "local l = net.MovieLoader.new(net.Cache.new(), net.HTTPSession.new('h'))\n"
        #expect(expectLuaError(lua, setup + "l:load('seven')", name: "m.lua")?.message
            == "m.lua:2: bad argument #1 to 'MovieLoader:load' (integer expected, got string)")
        #expect(expectLuaError(lua, setup + "l.load(l, 'seven')", name: "m.lua")?.message    // not a method call: self counts
            == "m.lua:2: bad argument #2 to 'MovieLoader:load' (integer expected, got string)")
        #expect(expectLuaError(lua, setup + "l.load(42)", name: "m.lua")?.message
            == "m.lua:2: bad argument #1 to 'MovieLoader:load' (MovieLoader expected, got integer)")
        #expect(expectLuaError(lua, "net.HTTPSession.new { host = 'h', port = 80 }", name: "n.lua")?.message
            == "n.lua:1: 'HTTPSession.new' has no argument named \"port\" (it takes: host)")
        #expect(expectLuaError(lua, "net.HTTPSession.new { host = 80 }", name: "n.lua")?.message
            == "n.lua:1: bad argument 'host' to 'HTTPSession.new' (string expected, got integer)")
    }

    @Test func propertiesAreCheckedAndNeverSilentlyNil() throws {
        let setup = "local l = net.MovieLoader.new(net.Cache.new(), net.HTTPSession.new('h'))\n"
        #expect(expectLuaError(lua, setup + "return l.lodas", name: "p.lua")?.message == "p.lua:2: MovieLoader has no field \"lodas\"")
        #expect(expectLuaError(lua, setup + "l.loads = 3", name: "p.lua")?.message == "p.lua:2: property 'loads' of MovieLoader is read-only")
        #expect(expectLuaError(lua, setup + "l.color = 'red'", name: "p.lua")?.message == "p.lua:2: MovieLoader has no writable property \"color\"")
        #expect(expectLuaError(lua, setup + "l.label = 5", name: "p.lua")?.message
            == "p.lua:2: bad value for 'label' to 'MovieLoader.__newindex' (string expected, got integer)")
        // A wrong element, or one that is not UTF-8, is named as the property's too.
        #expect(expectLuaError(lua, setup + "l.tags = { 'a', 2 }", name: "p.lua")?.message
            == "p.lua:2: bad value for 'tags' to 'MovieLoader.__newindex' (element [2]: string expected, got integer)")
        #expect(expectLuaError(lua, setup + "l.tags = { '\\255' }", name: "p.lua")?.message
            == "p.lua:2: bad value for 'tags' to 'MovieLoader.__newindex' (element [1]: string is not valid UTF-8)")
        #expect(try lua.run(setup + "l.tags = { 'a', 'b' } return #l.tags", name: "p.lua") == [2])
    }

    @Test func equalityTostringAndHiddenMetatables() throws {
        let out = try lua.run("""
            local c = net.Cache.new()
            local a = net.MovieLoader.new(c, net.HTTPSession.new('h'))
            local b = net.MovieLoader.new(c, net.HTTPSession.new('h'))
            return a == a, a == b, a.cache == b.cache, getmetatable(a), tostring(c):match('^Cache: 0x') ~= nil
            """, name: "eq.lua")
        #expect(out == [true, false, true, false, true])
    }

    @Test func objectsAreReleasedWhenCollected() throws {
        try lua.run("for i = 1, 100 do net.MovieLoader.new(net.Cache.new(), net.HTTPSession.new('h')):load(i) end", name: "gc.lua")
        lua.collectGarbage()
        #expect(counter.released == 100)
        #expect(counter.alive == 0)
    }
}

@Suite("Exported classes without properties")
struct ExportedMethodsOnlyTests {
    @Test func unknownFieldsAreErrorsToo() throws {
        let lua = try LuaState()
        try lua.setGlobal("Cache", .table(LuaClass<Cache>().constructor { Cache() }
            .method("size") { $0.entries.count }
            .install(in: lua)))
        #expect(try lua.run("return Cache.new():size()", name: "ok") == [.integer(0)])
        #expect(expectLuaError(lua, "local c = Cache.new()\nreturn c.sise", name: "f.lua")?.message
            == "f.lua:2: Cache has no field \"sise\"")
        #expect(expectLuaError(lua, "local c = Cache.new()\nc.extra = 1", name: "f.lua")?.message
            == "f.lua:2: Cache has no writable property \"extra\"")
    }
}

@Suite("Named constructor arguments")
struct NamedConstructorTests {
    @Test func missingAndMistypedNamedArguments() throws {
        let lua = try LuaState()
        try lua.setGlobal("HTTPSession", .table(LuaClass<HTTPSession>()
            .namedConstructor { args in HTTPSession(host: try args.required("host")) }
            .install(in: lua)))
        #expect(expectLuaError(lua, "HTTPSession.new {}", name: "n.lua")?.message
            == "n.lua:1: bad argument 'host' to 'HTTPSession.new' (string expected, got no value)")
        #expect(expectLuaError(lua, "HTTPSession.new('positional')", name: "n.lua")?.message
            == "n.lua:1: bad argument #1 to 'HTTPSession.new' (table of named arguments expected, got string)")
        let none = try LuaState()
        try none.setGlobal("Cache", .table(LuaClass<Cache>().install(in: none)))
        #expect(expectLuaError(none, "Cache.new()", name: "c.lua")?.message
            == "c.lua:1: Cache cannot be created from Lua (it has no constructor)")
    }
}
