@testable import FactoryScripting
import FactoryRegistry
import LuaBridge
import Testing

/// What a factory raises, when it is more than text, stays reachable from
/// the failed resolve: `err.cause` in a script, `errorCause(of:)` in Swift.
@Suite("A factory's error value reaches whoever catches the failure")
struct FactoryErrorCauseTests {
    private let script = """
        local net = require "factoryhost.networking"
        configuration "app" {
          register "table#inner" { make = function() error({ code = 42 }) end },
          register "table#outer" { deps = { i = "table#inner" }, make = function(d) return d end },
          register "table#text" { make = function() error("plain text") end },
          register "table#nested" { make = function() return container("app"):resolve "table#inner" end },
          register "Cache" { make = function() error({ code = 7 }) end },
        }
        """

    @Test func scriptsGetAnErrorObjectWithTheCause() throws {
        let host = try makeHost()
        try host.run(script, name: "app.lua")
        let result = try host.run("""
            local c = container "app"
            local function failure(key) return select(2, pcall(c.resolve, c, key)) end
            local inner, outer, nested, text = failure "table#inner", failure "table#outer", failure "table#nested", failure "table#text"
            local rethrown = select(2, pcall(function() error(failure("table#inner").cause) end))
            return type(inner), inner.cause.code, tostring(inner) == inner.message, getmetatable(inner),
                   outer.cause.code, nested.cause.code, type(text), rethrown.code
            """, name: "use.lua")
        #expect(result == ["table", 42, true, false, 42, 42, "string", 42])
        let message = try host.run("local c = container 'app' return select(2, pcall(c.resolve, c, 'table#outer')).message",
                                   name: "m.lua")
        #expect(message == [.string(LuaString("""
            the factory for table#inner failed: (error object is a table value) in configuration 'app'
              resolution path: table#outer → table#inner
              registered at app.lua:3
            """))])
    }

    @Test func swiftGetsTheCauseFromTheError() throws {
        let host = try makeHost()
        try host.run(script, name: "app.lua")
        let container = try host.container("app")
        do {
            _ = try container.resolve(Cache.self)
            Issue.record("the factory did not fail")
        } catch {
            guard case .table(let cause)? = host.errorCause(of: error) else {
                Issue.record("no cause for \(error)")
                return
            }
            #expect(try cause.get("code") == .integer(7))
        }
        // Text errors have no cause (not even Lua's nil).
        if case .some(let value) = host.errorCause(of: RegistryError(.factoryFailed, "text only")) {
            Issue.record("a cause for a text error: \(value)")
        }
        if case .some(let value) = host.errorCause(of: RegistryError(.factoryFailed, "gone", causeID: 999_999)) {
            Issue.record("a cause for an id never kept: \(value)")
        }
    }
}
