import Testing
@testable import LuaBridge

/// A Lua function handed to Swift as a factory closure: what it makes is
/// checked on every call, never taken on trust.
@Suite("Factory closures from Lua, checked by Swift")
struct FactoryClosureTests {
    let lua: LuaState

    init() throws {
        lua = try LuaState()
        try lua.setGlobal("Cache", .table(LuaClass<Cache>().constructor { Cache() }.install(in: lua)))
        try lua.setGlobal("HTTPSession", .table(LuaClass<HTTPSession>()
            .constructor { (host: String) in HTTPSession(host: host) }.install(in: lua)))
    }

    private func closure(_ code: String) throws -> LuaFactoryClosure<HTTPSession> {
        LuaFactoryClosure(try lua.run("return " + code, name: "closure.lua")[0].function(), name: "makeSession")
    }

    @Test func makesWhatItShouldEachCall() throws {
        let make = try closure("function() return HTTPSession.new('api.example') end")
        let first = try make(), second = try make()
        #expect(first.host == "api.example")
        #expect(first !== second)
    }

    @Test func passesNamedRuntimeArguments() throws {
        let make = try closure("function(a) return HTTPSession.new(a.host .. '/' .. a.path) end")
        #expect(try make(["host": "h", "path": "p"]).host == "h/p")
    }

    @Test(arguments: [
        ("function() return 'a session' end", "made a string (\"a session\")"),
        ("function() return nil end", "made nothing (nil)"),
        ("function() end", "made nothing (nil)"),
        ("function() return Cache.new() end", "made a Cache"),
        ("function() return 42 end", "made an integer"),
        ("function() return {} end", "made a table"),
        (#"function() return 'a\nb\0\27[31m"q"\\' end"#, #"made a string ("a\nb\0\27[31m\"q\"\\")"#),
    ])
    func refusesAnythingElseNamingTheClosure(code: String, made: String) throws {
        let make = try closure(code)
        #expect(throws: LuaError(.typeMismatch, "the factory closure 'makeSession' \(made), not an HTTPSession")) { try make() }
    }

    @Test func errorsOfTheClosureItselfComeThrough() throws {
        let make = try closure("function() error('no network', 0) end")
        let error = #expect(throws: LuaError.self) { try make() }
        #expect(error?.message.hasPrefix("no network") == true, "\(String(describing: error))")
    }

    @Test func anArgumentThatIsNoFunctionIsABadArgument() throws {
        try lua.registerFrame("takeFactory") { frame in
            _ = try LuaFactoryClosure<HTTPSession>(frame, 1, name: "makeSession")
            return 0
        }
        #expect(expectLuaError(lua, "takeFactory('x')", name: "a.lua")?.message
                == "a.lua:1: bad argument #1 to 'takeFactory' (function (factory closure 'makeSession' making an HTTPSession) expected, got string)")
        #expect(expectLuaError(lua, "takeFactory(function() end)", name: "b.lua") == nil)
    }
}
