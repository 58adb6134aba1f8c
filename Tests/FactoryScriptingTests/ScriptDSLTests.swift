import FactoryRegistry
@testable import FactoryScripting
import LuaBridge
import Foundation
import Testing

final class MessageBox: @unchecked Sendable { var text = "" }

@Suite("The script DSL: configurations, registrations, containers")
struct ScriptDSLTests {
    @Test func scriptConfigurationsResolveFromSwift() throws {
        let host = try makeHost()
        try host.run(appScript, name: "app.lua")
        let tests = try host.container("app-tests")
        let loader = try tests.resolve(MovieLoader.self)
        #expect(loader.session.baseURL == "fixture://")
        #expect(try tests.resolve(MovieLoader.self) !== loader)                 // transient
        #expect(try tests.resolve(MovieLoader.self).cache === loader.cache)     // singleton cache
        #expect(try host.container("app").resolve(MovieLoader.self).session.baseURL == "fixture://movies.example")
        #expect(try host.container("app-tests").resolve(Cache.self) !== loader.cache)   // containers share nothing
    }

    /// A script's scopes are a stack (`c:resolve` takes the newest), while
    /// the app embedding it resolves from the same container without its
    /// picking among several open: a server's requests each open one.
    @Test func scriptScopesStackWhereSwiftResolvesChooseExplicitly() throws {
        let host = try makeHost()
        try host.run("""
            scope "request"
            configuration "app" { register "table#Request" { scope = "request", make = function() return {} end } }
            local c = container "app"
            local first, second = c:openScope "request", c:openScope "request"
            assert(rawequal(c:resolve "table#Request", second:resolve "table#Request"))
            local make = c:provider "table#Request"
            assert(rawequal(make(), second:resolve "table#Request"))
            second:close()
            assert(rawequal(c:resolve "table#Request", first:resolve "table#Request"))
            first:close()
            -- A script's scope is open until closed, kept or not (Swift's handle is its scope's life).
            c:openScope "request"
            collectgarbage() collectgarbage()
            assert(c:resolve "table#Request" ~= nil)
            for _, s in ipairs { c:openScope "request" } do s:close() end
            """, name: "stack.lua")
        let c = try host.container("app")
        let first = try c.openScope("request"), second = try c.openScope("request")
        let key = try host.serviceKey(parsing: "table#Request")
        #expect(throws: RegistryError.self) { _ = try c.resolveAny(key) }
        do {
            _ = try c.resolveAny(key)
        } catch let error as RegistryError {
            #expect(error.kind == .scopeAmbiguous, "\(error)")
        }
        let mine = try second.withCurrent { try c.resolveAny(key) } as? LuaTable
        let held = try second.resolveAny(key) as? LuaTable
        #expect(mine != nil && held?.identity == mine?.identity)
        try first.close()
        try second.close()
    }

    /// Origins stay right across chunks with long names (reused strings
    /// must follow the file: a name of 41 bytes or more is not interned by Lua).
    @Test func originsFollowTheirFileAcrossLongChunkNames() throws {
        let host = try makeHost()
        let long = "some/rather/long/directory/name/for/the/first.lua"
        let names = [long, long, "short.lua", long + ".2", long]
        for (i, name) in names.enumerated() {
            _ = try host.run("configuration 'c\(i)' {\n register 'table#x' { make = function() return {} end },\n"
                             + " register 'table#y' { make = function() return {} end } }", name: name)
        }
        for (i, name) in names.enumerated() {
            let origins = try host.registry.registrations(in: "c\(i)").map(\.origin.description)
            #expect(origins == ["\(name):2", "\(name):3"])
        }
    }

    @Test func originsAreScriptLines() throws {
        let host = try makeHost()
        try host.run(appScript, name: "app.lua")
        let registrations = try host.registry.registrations(in: "app-tests")
        let origins = Dictionary(uniqueKeysWithValues: registrations.map { ($0.key.description, $0.origin.description) })
        #expect(origins == ["Cache": "app.lua:4", "HTTPSession": "app.lua:14", "MovieLoader": "app.lua:7"])
        let loader = try #require(registrations.first { $0.key.description == "MovieLoader" })
        #expect(loader.dependencies.map(\.description) == ["cache: Cache", "session: HTTPSession"])
    }

    @Test func resolvesFromLuaWithNamesArgumentsProvidersAndScopes() throws {
        let host = try makeHost()
        let results = try host.run(appScript + """

            local s = require "factoryhost.session"
            scope "session"
            configuration "extra" {
              extends = "app-tests",
              register "Cache#fast" { make = function() return net.Cache.new() end },
              register "UserSession" { args = { {"user", "string"}, {"token", "string"} },
                make = function(_, a) return s.UserSession.new { user = a.user, token = a.token } end },
              register "MovieLoader#scoped" { scope = "session", deps = { cache = "Cache#fast", session = "HTTPSession" },
                make = function(d) return net.MovieLoader.new(d.cache, d.session) end },
              register "SignInViewModel" { deps = { makeUser = provider "UserSession", api = "AuthRemoteAPI" },
                make = function(d)
                  local u = d.makeUser { user = "from provider", token = "t" }
                  return s.SignInViewModel.new(d.api)
                end },
              register "AuthRemoteAPI" { make = function() return { signIn = function(self, user) return s.UserSession.new { user = user } end } end },
            }
            local c = container "extra"
            local u = c:resolve("UserSession", { user = "ana", token = "xyz" })
            local sess = c:openScope "session"
            local a, b = sess:resolve "MovieLoader#scoped", sess:resolve "MovieLoader#scoped"
            local closedBefore = sess.isClosed
            sess:close()
            local vm = c:resolve "SignInViewModel"
            local makeLoader = c:provider "MovieLoader"
            return u.user, u.token, a == b, closedBefore, sess.isClosed, vm:signIn("bo", "pw"), makeLoader() ~= makeLoader(),
                   pcall(c.resolve, c, "MovieLoader#scoped")
            """, name: "app.lua")
        #expect(results.prefix(7) == ["ana", "xyz", true, false, true, "signed in as bo", true])
        #expect(results[7] == false)
        #expect(try results[8].string().hasPrefix("no 'session' scope is open to hold MovieLoader#scoped in configuration 'extra'"))
        // Ordered arguments keep their order for Swift callers.
        let extra = try host.container("extra")
        let session = try extra.resolve(UserSession.self, arguments: "cy", "tok")
        #expect(session.user == "cy" && session.token == "tok")
    }

    @Test func luaFactoryResultsAreChecked() throws {
        let host = try makeHost()
        try host.run("""
            local net = require "factoryhost.networking"
            configuration "app" {
              register "Cache" { make = function() return "oops" end },
              register "MovieLoader" { make = function() return net.Cache.new() end },
              register "HTTPSession" { make = function() end },
            }
            """, name: "app.lua")
        let app = try host.container("app")
        #expect(message { _ = try app.resolve(Cache.self) } == """
            the factory for Cache returned string "oops", expected Cache in configuration 'app'
              resolution path: Cache
              registered at app.lua:3
            """)
        #expect(message { _ = try app.resolve(MovieLoader.self) }.hasPrefix(
            "the factory for MovieLoader returned a Cache, expected MovieLoader in configuration 'app'"))
        #expect(message { _ = try app.resolve(HTTPSession.self) }.hasPrefix(
            "the factory for HTTPSession returned nothing, expected HTTPSession"))
        let error = try #require(throws: RegistryError.self) { try app.resolve(Cache.self) }
        #expect(error.kind == .wrongType && error.origin == Origin(file: "app.lua", line: 3))
    }

    @Test(arguments: [
        ("configuration 'app' { register 'Cache' { scop = 'singleton', make = print } }",
         "x.lua:1: register \"Cache\": unknown field 'scop', did you mean 'scope'? (fields: args, assisted, deps, eager, into, key, make, name, override, params, scope)"),
        ("configuration 'app' { register 'Cash' { make = print } }",
         "x.lua:1: unknown type 'Cash', did you mean 'Cache'?"),
        ("configuration 'app' { register 'Cache' { } }", "x.lua:1: register \"Cache\": 'make' (the factory function) is missing"),
        ("configuration 'app' { register 'Cache' { make = 1 } }",
         "x.lua:1: register \"Cache\": 'make' must be a function (got integer)"),
        ("configuration 'app' { register 'Cache' { deps = { c = 3 }, make = print } }",
         "x.lua:1: register \"Cache\": dependency 'c' must be a type name, provider \"Type\" or value \"name\" (got integer)"),
        ("configuration 'app' { register 'Cache' { eager = true, make = print } }",
         "x.lua:1: register \"Cache\": only a singleton can be eager (scope is transient)"),
        ("configuration 'app' { register 'movieloader' { make = print } }",
         "x.lua:1: unknown type 'movieloader', did you mean 'MovieLoader'?"),
        ("configuration 'app' { register 'Cache' { args = { n = 'intger' }, make = print } }",
         "x.lua:1: register \"Cache\": argument 'n': unknown type 'intger', did you mean 'integer'?"),
        ("configuration 'app' { register 'Cache' { args = { n = 'Nope' }, make = print } }",
         "x.lua:1: register \"Cache\": argument 'n': unknown type 'Nope'; to name a type of your own, declare it with interface \"Nope\" { … }, or take any table as \"table#Nope\""),
        ("configuration 'app' { 'Cache' }", "x.lua:1: configuration 'app' (x.lua:1): item [1] is string \"Cache\", not a register \"Type\" { … }"),
        ("configuration 'app' { extend = 'base' }",
         "x.lua:1: configuration 'app' (x.lua:1): unknown field 'extend', did you mean 'extends'? (a configuration holds register \"…\" { … } items and 'extends')"),
        ("configuration 'app' { register 'Cache' { make = print }, register 'Cache' { make = print } }",
         "x.lua:1: Cache is registered twice in configuration 'app'\n  first at x.lua:1\n  again at x.lua:1 (say it overrides to replace the first)"),
        ("register 'Cache' { make = print }",
         "x.lua:1: register \"Cache\" is not inside any configuration, so nothing uses it\n  registered at x.lua:1\n  put it in a configuration: configuration \"app\" { register \"Cache\" { … } }"),
        ("scope('screen', { within = 'session' })", "x.lua:1: scope 'screen' nests in 'session', which is not declared\n  declared at x.lua:1"),
        ("scope('screen', { inside = 'session' })", "x.lua:1: scope 'screen': unknown option 'inside' (options: within)"),
        ("resolve 'Cache'", "x.lua:1: resolve needs a configuration: run with --config NAME, or resolve from a container (container \"name\"):resolve(…)"),
        ("implement('Cache', {})", "x.lua:1: bad argument #1 to 'implement' ('Cache' is a class, not an interface)"),
        ("register 'Cache' 'x'", "x.lua:1: bad argument #1 to 'register \"Cache\"' (table (register \"Cache\" { make = function() … end }) expected, got string)"),
        ("configuration 'app' 'x'", "x.lua:1: configuration 'app' (x.lua:1): the body must be a table { register … }"),
        ("configuration 'app' { register 'Cache' { args = 3, make = print } }",
         "x.lua:1: register \"Cache\": 'args' must be a table (got integer)"),
        ("configuration 'app' { register 'Cache' { args = { {'n'} }, make = print } }",
         "x.lua:1: register \"Cache\": each entry of an ordered 'args' list is { \"name\", \"Type\" }"),
        ("configuration 'app' { register 'Cache' { args = { {'n', 'number'}, {'n', 'string'} }, make = print } }",
         "x.lua:1: register \"Cache\": an argument name appears twice"),
        ("configuration 'app' { register 'Cache#' { make = print } }", "x.lua:1: 'Cache#': the name after '#' is empty"),
        ("configuration 'app' { register 'Cache#a' { name = 'b', make = print } }",
         "x.lua:1: 'Cache#a' names 'a', but the registration also says name = 'b'"),
        ("configuration 'app' { register 'Cache' { deps = { [true] = 'Cache' }, make = print } }",
         "x.lua:1: register \"Cache\": dependency labels must be names (got boolean)"),
        ("configuration 'app' { register 'Cache' { deps = { [1.5] = 'Cache' }, make = print } }",
         "x.lua:1: register \"Cache\": dependency labels must be names (got float)"),
        // The label is the key `make` reads: repairing its bytes would hand make another key (it was silently the dependency's key).
        ("configuration 'app' { register 'Cache' { deps = { ['c\\255'] = 'Cache' }, make = print } }",
         "x.lua:1: register \"Cache\": dependency label \"c\\255\" is not valid UTF-8"),
        // So is a value's: it was silently repaired too.
        ("value 'v' { type = 'string', default = 'x' }\nconfiguration 'app' { register 'Cache' { deps = { ['\\255\"'] = value 'v' }, make = print } }",
         "x.lua:2: register \"Cache\": dependency label \"\\255\\\"\" is not valid UTF-8"),
        ("configuration 'app' { register 'Cache' { deps = { c = provider 'Cachee' }, make = print } }",
         "x.lua:1: unknown type 'Cachee', did you mean 'Cache'?"),
        ("configuration 'app' { register 'Cache' { deps = { c = {} }, make = print } }",
         "x.lua:1: register \"Cache\": dependency 'c' must be a type name, provider \"Type\" or value \"name\" (got table)"),
        ("configuration 'app' { [1.5] = register 'Cache' { make = print } }",
         "x.lua:1: configuration 'app' (x.lua:1): unknown field [1.5] (a configuration holds register \"…\" { … } items and 'extends')"),
        ("configuration 'app' { extends = 3 }", "x.lua:1: configuration 'app' (x.lua:1): 'extends' must name a configuration (got integer)"),
        ("configuration 'app' { provider 'Cache' }",
         "x.lua:1: configuration 'app' (x.lua:1): item [1] is a factoryhost.provider, not a register \"Type\" { … }"),
        ("configuration 'app' { register 'Cache' { make = function() return require('factoryhost.networking').Cache.new() end } }\ncontainer('app'):resolve('Cache', 3)",
         "x.lua:2: the runtime arguments of Cache must be a table of names (got integer)"),
        ("configuration 'a' { }; configuration 'a' { extends = 'b' }",
         "x.lua:1: configuration 'a' is given extends = 'b', but it was first defined at x.lua:1 extending nothing\n  say extends only where the configuration is first defined"),
        // The body as a second argument declared nothing, and the registers inside were blamed.
        ("configuration('app', nil) { register 'Cache' { make = print } }\nconfiguration('app', { register 'Cache' { make = print } })",
         "x.lua:2: bad argument #2 to 'configuration' (the body is not a second argument: write configuration \"app\" { register … }, or configuration(\"app\")({ … }))"),
        ("scope 'session'\nscope('session', { within = 'session' })",
         "x.lua:2: scope 'session' is declared twice, differently: at the top (no within) and within 'session'\n"
         + "  first at x.lua:1: at the top (no within)\n  again at x.lua:2: within 'session'\n  declare it the same way everywhere (an identical declaration is fine)"),
        ("scope 'session'\nscope('screen', { within = 'sesion' })",
         "x.lua:2: scope 'screen' nests in 'sesion', which is not declared, did you mean 'session'?\n  declared at x.lua:2"),
        ("configuration 'app' { register 'Cache' { args = { size = 'integer' }, make = function() return require('factoryhost.networking').Cache.new() end } }\ncontainer('app'):resolve('Cache', { sise = 3 })",
         "x.lua:2: Cache has no runtime argument 'sise', did you mean 'size'? (it takes size: integer)"),
        // Text that is not UTF-8 is named as the argument it is (the message was the bare "string is not valid UTF-8").
        ("configuration 'app' { register 'table#t' { args = { name = 'string' }, make = function(d, a) return {} end } }\ncontainer('app'):resolve('table#t', { name = '\\255' })",
         "x.lua:2: bad runtime argument 'name' for table#t (string is not valid UTF-8)"),
        ("configuration 'app' { }\ncontainer 'ap'", "x.lua:2: no configuration named 'ap', did you mean 'app'?\n  defined: app"),
    ])
    func badDeclarationsAreClearErrors(script: String, expected: String) throws {
        let host = try makeHost()
        let text = message { try host.run(script, name: "x.lua") }
        #expect(text.components(separatedBy: "\nstack traceback:").first == expected)
    }

    /// make's deps hold what the registration declares, and nothing else reads as nil:
    /// an undeclared name is an error at its line naming the declared ones (it was nil,
    /// failing later as "attempt to index a nil value", or never); pairs and d[1] are as before.
    @Test func readingAnUndeclaredDependencyNamesTheDeclaredOnes() throws {
        let host = try makeHost()
        try host.run("""
            configuration 'app' {
              register 'table#c' { make = function() return {} end },
              register 'table#t' { deps = { cache = 'table#c' }, params = { n = 1 }, make = function(d)
                local names = {}
                for k in pairs(d) do names[#names + 1] = k end
                table.sort(names)
                return { names = table.concat(names, ','), first = d[1], meta = getmetatable(d) }
              end },
              register 'table#bad' { deps = { cache = 'table#c' }, make = function(d)
                return { d.cahce }
              end },
            }
            local t = container('app'):resolve('table#t')
            assert(t.names == 'cache,n' and t.first == nil and t.meta == false, t.names)
            """, name: "ok.lua")
        let text = message { try host.run("container('app'):resolve('table#bad')", name: "x.lua") }
        #expect(text.components(separatedBy: "\n")[0] == "x.lua:1: the factory for table#bad failed: ok.lua:10: "
                + "make's deps have no \"cahce\", did you mean 'cache'? (declared: cache) in configuration 'app'", "\(text)")
        // A huge name is cut in the message; a name that is not text reads nil, as for any table.
        try host.run("""
            configuration 'big' {
              register 'table#c' { make = function() return {} end },
              register 'table#t' { deps = { cache = 'table#c' }, make = function(d)
                assert(d[true] == nil and d[2.5] == nil)
                return { d[('x'):rep(1000000)] }
              end },
            }
            """, name: "big.lua")
        let huge = message { try host.run("container('big'):resolve('table#t')", name: "y.lua") }
        #expect(huge.count < 1_000 && huge.contains("make's deps have no \"xxxx") && huge.contains("...\" (declared: cache)"), "\(huge.prefix(300))")
    }

    /// Two modules may both declare the scope they share.
    @Test func anIdenticalScopeDeclarationIsFine() throws {
        let host = try makeHost()
        try host.run("scope 'session'\nscope('screen', { within = 'session' })\nscope 'session'\nscope('screen', { within = 'session' })", name: "x.lua")
        #expect(host.registry.scopes.map(\.description) == ["screen (in session)", "session"])
    }

    /// Plugin modules and class tables read like Swift namespaces: a typo is
    /// an error naming the member meant, not a nil that fails a line later.
    @Test func pluginModulesAndClassesAreStrict() throws {
        let host = try makeHost()
        let prelude = "local net = require 'factoryhost.networking'\n"
        #expect(message { try host.run(prelude + "return net.Cahce.new()", name: "m.lua") }.hasPrefix(
            "m.lua:2: module 'factoryhost.networking' has no member 'Cahce', did you mean 'Cache'? (members: Cache, HTTPSession, MovieLoader)"))
        #expect(message { try host.run(prelude + "return net.Cache.nwe()", name: "c.lua") }.hasPrefix(
            "c.lua:2: class 'Cache' has no member 'nwe', did you mean 'new'? (members: new, typeName)"))
        // Present members, writes, rawget and pairs work as on any table; the metatable is hidden.
        let results = try host.run(prelude + """
            net.helper = 1
            local count = 0
            for _ in pairs(net) do count = count + 1 end
            return net.Cache.typeName, net.helper, rawget(net, "nope"), getmetatable(net), getmetatable(net.Cache), count
            """, name: "ok.lua")
        #expect(results == ["Cache", 1, .nil, false, false, 4])      // the module's three classes and helper
        // Only names are members: as a list the module is empty (ipairs, #), and an interface check
        // of a module says what is missing instead of failing in the module's own error.
        #expect(try host.run(prelude + "local n = 0 for _ in ipairs(net) do n = n + 1 end return n, #net, net[1]", name: "l.lua")
            == [0, 0, .nil])
        #expect(message { try host.run("implement('AuthRemoteAPI', require 'factoryhost.session')", name: "i.lua") }.hasPrefix(
            "i.lua:1: bad argument #2 to 'implement' (table does not implement AuthRemoteAPI: missing signIn (required: signIn))"))
        // A module that is not there: require names the plugin modules and the one meant.
        let missing = message { try host.run("require 'factoryhost.networkin'", name: "r.lua") }
        // Said last: a searcher inserted before the C ones would move them from where check's dry run guards them.
        #expect(missing.components(separatedBy: "\nstack traceback:")[0].hasSuffix(
            "\n\tno plugin module 'factoryhost.networkin', did you mean 'factoryhost.networking'? "
            + "(plugin modules: factoryhost.networking, factoryhost.session)"), "\(missing)")
        #expect(!message { try host.run("require 'nosuch'", name: "n.lua") }.contains("plugin module"))
    }

    @Test func luaFactoriesRefuseOtherThreads() throws {
        let host = try makeHost()
        try host.run(appScript, name: "app.lua")
        let container = try host.container("app")
        let box = MessageBox()
        let done = DispatchSemaphore(value: 0)
        Thread {
            box.text = message { _ = try container.resolve(Cache.self) }
            done.signal()
        }.start()
        done.wait()
        #expect(box.text.contains("the Lua factory for Cache (app.lua:4) was called on another thread"))
        #expect(try container.resolve(Cache.self).count == 0)      // still fine on the owner's thread
    }

    @Test func checkRunsOnlyDeclarationsAndReportsEveryProblem() throws {
        let host = try makeHost()
        let path = try writeScript("""
            local net = require "factoryhost.networking"
            scope "session"
            configuration "app" {
              register "Cache" { scope = "singleton", deps = { s = "UserSession" }, make = function() return net.Cache.new() end },
              register "UserSession" { scope = "session", make = function() end },
              register "MovieLoader" { deps = { cache = "Cache", session = "HTTPSession" }, make = function() end },
              register "SignInViewModel" { deps = { m = "SignInViewModel" }, make = function() end },
            }
            local c = container "app"
            error("never reached")
            """)
        let run = host.declare(file: path)
        #expect(run.stop?.reason == .container && run.stop?.origin?.line == 9)
        #expect(run.error == nil && run.unreached.isEmpty && run.sawEverything)
        let problems = try host.check().map { "\($0.origin.map(\.description) ?? "?") \($0.kind)" }
        let file = String(path.split(separator: "/").last ?? "")
        #expect(problems.sorted() == ["\(file):4 captiveDependency", "\(file):6 missingRegistration", "\(file):7 cycle"]
            .map { String(path.dropLast(file.count)) + $0 }.sorted())
    }

    /// The weak scope holds only exported Swift classes: a Lua value (or an
    /// interface a table may implement) would be held through a wrapper no
    /// one else holds, so each resolve built a new one — transient, silently.
    @Test func weakScopeIsRefusedForLuaValuesAndWorksForClasses() throws {
        for key in ["table#x", "any#x", "AuthRemoteAPI"] {
            let host = try makeHost()
            let text = message {
                try host.run("configuration \"app\" { register \"\(key)\" { scope = \"weak\", make = function() return {} end } }",
                             name: "weak.lua")
            }
            #expect(text.contains("the weak scope holds only exported Swift classes"), "\(key): \(text)")
        }
        let host = try makeHost()
        let same = try host.run("""
            local net = require "factoryhost.networking"
            configuration "app" { register "Cache" { scope = "weak", make = function() return net.Cache.new() end } }
            local c = container "app"
            local held = c:resolve "Cache"
            return held == c:resolve "Cache"
            """, name: "weak.lua")
        #expect(same == [true])
    }

    /// A Lua factory that resolves through a container it captured may
    /// resolve only what it declares — a built singleton too (its answer
    /// was once remembered in Lua, past every check); a provider it was
    /// given, or a container of its own, is fine.
    @Test func aLuaFactoryResolvingWhatItDoesNotDeclareFails() throws {
        let host = try makeHost()
        let result = try host.run("""
            local net = require "factoryhost.networking"
            local c
            configuration "app" {
              register "Cache" { scope = "singleton", make = function() return net.Cache.new() end },
              register "table#sneaky" { make = function() return { cache = c:resolve "Cache" } end },
              register "table#declared" { deps = { cache = "Cache" }, make = function() return { cache = c:resolve "Cache" } end },
              register "table#provided" { deps = { make = provider "Cache" }, make = function(d) return { cache = d.make() } end },
              register "table#own" { make = function() return { cache = container("app"):resolve "Cache" } end },
              register "table#hiding" { make = function() pcall(c.resolve, c, "Cache") return {} end },
            }
            c = container "app"
            local before = select(2, pcall(c.resolve, c, "table#sneaky"))
            c:resolve "Cache"                                          -- built, and remembered
            local after = select(2, pcall(c.resolve, c, "table#sneaky"))
            local hidden = select(2, pcall(c.resolve, c, "table#hiding"))   -- a pcall in make cannot hide it
            return tostring(hidden):match("^the factory for table#hiding resolved Cache through a container") ~= nil,
                   tostring(before):match("resolved Cache through a container, but does not declare it") ~= nil,
                   tostring(after):match("resolved Cache through a container, but does not declare it") ~= nil,
                   c:resolve("table#declared").cache == c:resolve "Cache",
                   c:resolve("table#provided").cache == c:resolve "Cache",
                   c:resolve("table#own").cache ~= nil
            """, name: "sneaky.lua")
        #expect(result == [true, true, true, true, true, true])
    }
}

/// Writes `text` to a new temporary `.lua` file; returns its path.
func writeScript(_ text: String, name: String = "script.lua") throws -> String {
    let directory = "/tmp/fh-scripting-\(UInt64.random(in: 0...UInt64.max))"
    try host_mkdir(directory)
    let path = directory + "/" + name
    try host_write(path, text)
    return path
}
