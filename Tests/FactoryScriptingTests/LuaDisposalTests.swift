@testable import FactoryScripting
import FactoryRegistry
import LuaBridge
import Testing

/// Lua instances hear when their scope or container closes: a `__close`
/// metamethod (even behind a hidden metatable) or a `close` method runs,
/// newest first; a failing close is reported after every other one ran.
@Suite("Lua objects are closed with their scope or container")
struct LuaDisposalTests {
    private let script = """
        local s = require "factoryhost.session"
        scope "session"
        closed = {}
        local function closable(name, fails)
          return function()
            return { close = function(self) closed[#closed + 1] = name; if fails then error(name .. " failed", 0) end end }
          end
        end
        configuration "app" {
          register "table#log" { scope = "singleton", make = closable("log") },
          register "table#config" { scope = "singleton", make = closable("config") },
          register "table#hidden" { scope = "session", make = function()
            return setmetatable({}, { __metatable = false,
              __close = function(self, err) closed[#closed + 1] = "hidden " .. tostring(err) end })
          end },
          register "table#screen" { scope = "session", make = closable("screen") },
          register "table#bad" { scope = "session", make = closable("bad", true) },
          register "table#plain" { scope = "session", make = function() return { close = "not a function" } end },
          register "table#transient" { make = closable("transient") },
          register "AuthRemoteAPI" { scope = "session", make = function()
            return implement("AuthRemoteAPI", { signIn = function() end, close = function() closed[#closed + 1] = "fake api" end })
          end },
        }
        """

    private func run(_ code: String) throws -> [LuaValue] {
        let host = try makeHost()
        try host.run(script, name: "app.lua")
        return try host.run(code, name: "use.lua")
    }

    @Test func aScopeClosesItsLuaInstancesNewestFirst() throws {
        let result = try run("""
            local c = container "app"
            local session = c:openScope "session"
            session:resolve "table#hidden"; session:resolve "table#plain"; session:resolve "AuthRemoteAPI"
            session:resolve "table#screen"; c:resolve "table#transient"; c:resolve "table#log"
            session:close()
            return table.concat(closed, ","), session.isClosed
            """)
        #expect(result == ["screen,fake api,hidden nil", true])
    }

    @Test func aContainerClosesItsScopesThenItsSingletons() throws {
        let result = try run("""
            local c = container "app"
            c:resolve "table#config"; c:resolve "table#log"
            c:openScope("session"):resolve "table#screen"
            c:close()
            local ok, err = pcall(c.resolve, c, "table#log")
            return table.concat(closed, ","), c.isClosed, tostring(c), err
            """)
        #expect(result == ["screen,log,config", true, "Container(app, closed)",
                           "cannot build table#log: container 'app' is closed"])
    }

    @Test func aFailingCloseIsReportedAfterEveryOtherRan() throws {
        let result = try run("""
            local c = container "app"
            local session = c:openScope "session"
            session:resolve "table#screen"; session:resolve "table#bad"; session:resolve "table#hidden"
            local ok, err = pcall(session.close, session)
            return table.concat(closed, ","), ok, err
            """)
        #expect(result == ["hidden nil,bad,screen", false, .string(LuaString("""
            closing scope 'session': an instance failed to close (every other one was closed) in configuration 'app'
              table#bad (app.lua:17): bad failed
            """))])
    }
}
