import FactoryRegistry
@testable import FactoryScripting
import LuaBridge
import Testing

/// `c:resolve` from Lua answers built singletons from a memo, hands back the
/// userdata a factory made, and reuses a dependency's userdata: each fast
/// path must give the answers the slow path gives, and never a stale one.
@Suite("Resolving from Lua: fast paths agree with the slow one")
struct ResolveFastPathTests {
    private let script = """
        local net = require "factoryhost.networking"
        scope "session"
        made = {}
        configuration "app" {
          register "Cache" { scope = "singleton", make = function() return net.Cache.new() end },
          register "Cache#fresh" { make = function() local c = net.Cache.new(); made[#made + 1] = c; return c end },
          register "Cache#perSession" { scope = "session", make = function() return net.Cache.new() end },
          register "MovieLoader" { deps = { cache = "Cache", session = "HTTPSession" },
            make = function(d) seen[#seen + 1] = d.cache; return net.MovieLoader.new(d.cache, d.session) end },
          register "HTTPSession" { make = function() return net.HTTPSession.new { baseURL = "fixture://" } end },
          register "table#settings" { scope = "singleton", make = function() return { level = 1 } end },
        }
        seen = {}
        c = container "app"
        """

    private func host() throws -> FactoryHost {
        let host = try makeHost()
        try host.run(script, name: "fast.lua")
        return host
    }

    private func truth(_ host: FactoryHost, _ code: String) throws -> Bool {
        try host.run(code, name: "check.lua").first?.isTruthy == true
    }

    @Test func aBuiltSingletonIsTheSameUserdataEveryTimeAndTheSameObject() throws {
        let host = try host()
        #expect(try truth(host, "return rawequal(c:resolve 'Cache', c:resolve 'Cache')"))
        #expect(try truth(host, "return rawequal(c:resolve 'table#settings', c:resolve 'table#settings')"))
        // The memo answers what Swift would: the container's own singleton.
        let cache = try host.container(of: host.lua.global("c"))?.container.resolve(Cache.self)
        guard case .userdata(let userdata)? = try host.run("return c:resolve 'Cache'", name: "x.lua").first else {
            Issue.record("c:resolve 'Cache' returned no userdata")
            return
        }
        let fromLua = userdata.object(as: Cache.self)
        #expect(cache != nil && fromLua === cache)
    }

    @Test func twoContainersNeverShareAMemo() throws {
        let host = try host()
        #expect(try truth(host, "local d = container 'app' return not rawequal(c:resolve 'Cache', d:resolve 'Cache') and d:resolve 'Cache' ~= c:resolve 'Cache'"))
    }

    @Test func transientsScopedAndArgumentCallsAreNeverRemembered() throws {
        let host = try host()
        #expect(try truth(host, "return c:resolve 'Cache#fresh' ~= c:resolve 'Cache#fresh'"))
        // A scoped instance through a scope; and the scope, once closed, refuses even a singleton.
        let closed = try host.run("""
            local s = c:openScope "session"
            local a = s:resolve "Cache#perSession"
            assert(s:resolve "Cache" == c:resolve "Cache")
            s:close()
            local ok, err = pcall(s.resolve, s, "Cache#perSession")
            return a ~= nil, ok, err
            """, name: "scope.lua")
        #expect(closed.first?.isTruthy == true)
        #expect(closed.dropFirst().first?.isTruthy == false)
        #expect(try closed.last?.string().contains("closed") == true)
        // Not in a session any more: the container says so every time (nothing remembered).
        for _ in 0..<2 {
            #expect(throws: LuaError.self) { try host.run("return c:resolve 'Cache#perSession'", name: "again.lua") }
        }
        // Runtime arguments (even nil) take the checked path each time.
        #expect(throws: LuaError.self) { try host.run("return c:resolve('Cache', 3)", name: "args.lua") }
    }

    @Test func theUserdataAFactoryReturnedIsTheOneResolveReturns() throws {
        let host = try host()
        #expect(try truth(host, "local x = c:resolve 'Cache#fresh' return rawequal(x, made[#made])"))
        #expect(try truth(host, "local x = c:resolve 'Cache#fresh' local y = c:resolve 'Cache#fresh' return rawequal(y, made[#made]) and not rawequal(x, y)"))
    }

    @Test func aSingletonDependencyReachesMakeAsOneUserdataAndALiveOne() throws {
        let host = try host()
        #expect(try truth(host, """
            c:resolve "MovieLoader"; c:resolve "MovieLoader"
            return #seen == 2 and rawequal(seen[1], seen[2]) and seen[1] == c:resolve "Cache"
            """))
        // Dropped by Lua, the cached userdata goes; the next factory call gets a new one for the same object.
        #expect(try truth(host, """
            local e = container "app"
            e:resolve "MovieLoader"
            seen = {}; collectgarbage(); collectgarbage()
            e:resolve "MovieLoader"
            return seen[1] ~= nil and seen[1] == e:resolve "Cache"
            """))
        // Another container's singleton is never handed over from the cache.
        #expect(try truth(host, """
            local d = container "app"
            seen = {}
            c:resolve "MovieLoader"; d:resolve "MovieLoader"
            return seen[1] ~= seen[2] and seen[2] == d:resolve "Cache" and seen[1] == c:resolve "Cache"
            """))
    }

    @Test func watchersHearEveryResolveMemoOrNot() throws {
        let host = try host()
        _ = try host.run("c:resolve 'Cache'", name: "before.lua")       // remembered before anyone watched
        var heard = 0
        host.onScriptResolve = { _, _, _ in heard += 1 }
        _ = try host.run("for i = 1, 3 do c:resolve 'Cache' end", name: "watch.lua")
        #expect(heard == 3)
        host.onScriptResolve = nil
        _ = try host.run("c:resolve 'Cache'", name: "after.lua")
        #expect(heard == 3)
    }

    @Test func aProviderHandsBackTheFactorysUserdataAndHoldsNothing() throws {
        let host = try host()
        #expect(try truth(host, "local p = c:provider 'Cache#fresh' local x = p() return rawequal(x, made[#made])"))
        // Nothing keeps what a provider built alive once Lua drops it.
        #expect(try truth(host, """
            local W = setmetatable({}, { __mode = "v" })
            do local p = c:provider "Cache#fresh"; W[1] = p() end
            made = {}
            collectgarbage(); collectgarbage()
            return W[1] == nil
            """))
    }

    @Test func aReleasedContainerIsNeverAnsweredFromTheMemo() throws {
        let host = try host()
        // The holder's finalizer runs after the container's (finalizers run
        // newest first): by then the container's object is released.
        let result = try host.run("""
            local holder = setmetatable({}, { __gc = function(h)
              local ok, err = pcall(h.c.resolve, h.c, "Cache")
              outcome = { ok = ok, err = tostring(err) }
            end })
            holder.c = container "app"
            holder.c:resolve "Cache"
            holder = nil
            collectgarbage(); collectgarbage()
            return outcome ~= nil, outcome and outcome.ok, outcome and outcome.err
            """, name: "released.lua")
        #expect(result.first?.isTruthy == true)
        #expect(result.dropFirst().first?.isTruthy == false, "\(result)")
    }

    @Test func theMemoCannotBeSwappedThroughTheDebugLibrary() throws {
        let host = try host()
        let result = try host.run("""
            local ok, err = pcall(debug.setupvalue, c.resolve, 2, {})
            local ok1 = pcall(debug.setupvalue, c.resolve, 1, {})
            return ok or ok1, err
            """, name: "debug.lua")
        #expect(result.first?.isTruthy == false)
        #expect(try result.last?.string().contains("cannot be changed") == true)
        // Nor read: a Swift function shows no upvalues.
        #expect(try truth(host, "return select('#', debug.getupvalue(c.resolve, 2)) == 0 and select('#', debug.getupvalue(c.resolve, 1)) == 0"))
        #expect(try truth(host, "return rawequal(c:resolve 'Cache', c:resolve 'Cache')"))
    }
}
