@testable import FactoryScripting
import FactoryRegistry
import LuaBridge
import Testing

/// `c:child { register … }` in scripts.
@Suite("Child containers in scripts")
struct ScriptChildContainerTests {
    @Test func aChildOverridesAndSharesWhatTheParentOwns() throws {
        let host = try makeHost()
        let result = try host.run("""
            local net = require "factoryhost.networking"
            configuration "app" {
              register "Cache" { scope = "singleton", make = function() return net.Cache.new() end },
              register "HTTPSession" { scope = "singleton", make = function() return net.HTTPSession.new { baseURL = "fixture://real" } end },
              register "MovieLoader" { deps = { cache = "Cache", session = "HTTPSession" },
                make = function(d) return net.MovieLoader.new(d.cache, d.session) end },
              register "table#client" { scope = "singleton", deps = { session = "HTTPSession" },
                make = function(d) return { url = d.session.baseURL } end },
            }
            local app = container "app"
            local test = app:child {
              register "HTTPSession" { scope = "singleton", make = function() return net.HTTPSession.new { baseURL = "fixture://fake" } end },
            }
            local loader = test:resolve "MovieLoader"
            local shared = loader.cache == app:resolve "Cache"
            local client = test:resolve "table#client"
            test:close()
            return loader.session.baseURL, shared, client.url, client == app:resolve "table#client",
                   test.parent == app, tostring(test), app.isClosed
            """, name: "child.lua")
        #expect(result == ["fixture://fake", true, "fixture://real", true, true, "Container(app, child, closed)", false])
        // A child that fails leaves its registrations for a corrected one, unreported.
        let retried = try host.run("""
            local net = require "factoryhost.networking"
            local app = container "app"
            local fake = register "HTTPSession" { scope = "singleton", make = function() return net.HTTPSession.new { baseURL = "fixture://again" } end }
            local ok = pcall(app.child, app, { fake, register "HTTPSession" { make = print } })
            return ok, app:child({ fake }):resolve("MovieLoader").session.baseURL
            """, name: "retry.lua")
        #expect(retried == [false, "fixture://again"])
        let problems = try host.check()
        #expect(problems.isEmpty, "\(problems)")
        #expect(message { _ = try host.run("container('app'):child('x')", name: "s.lua") }.contains("(table expected, got string)"))
        let bad = message { _ = try host.run("container('app'):child { 42 }", name: "bad.lua") }
        #expect(bad.contains("child container (bad.lua:1): the body holds register \"…\" { … } items only (got [1] = integer 42)"), "\(bad)")
    }

    /// Several unnamed contributions at one place (a loop) are several, not a duplicate.
    @Test func unnamedContributionsInALoopAreEachTheirOwn() throws {
        let host = try makeHost()
        let result = try host.run("""
            interface "Handler" { "handle" }
            local body = {}
            for i = 1, 3 do body[#body + 1] = register "Handler" { into = "set", make = function() return { handle = function() return i end } end } end
            configuration("app")(body)
            local out = {}
            for _, h in ipairs(container("app"):resolve "[Handler]") do out[#out + 1] = h:handle() end
            return table.concat(out, ",")
            """, name: "loop.lua")
        #expect(result == ["1,2,3"])
    }
}
