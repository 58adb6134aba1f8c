import FactoryScripting
import Foundation
import LuaBridge

/// The plain-Lua container the resolve cases compare with (`Lua/plain_container.lua`).
let plainContainerSource: String = {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Lua/plain_container.lua")
    return (try? String(contentsOf: file, encoding: .utf8)) ?? "error('plain_container.lua is missing')"
}()

/// `lua_resolve_singleton`, `lua_resolve_transient`: `c:resolve "Key"` in a
/// Lua loop, against the same registrations in a sixty-line plain-Lua
/// container resolved the same way (`Lua/plain_container.lua`).
///
/// - singleton: a `Logger` (an exported Swift class) already built.
/// - transient: a `Store` built by a Lua factory from its `Logger` dependency
///   (the singleton), so each resolve calls the factory and builds a new
///   Swift object.
func luaResolveCases() throws -> [CaseResult] {
    let (host, loop, app, plain) = try luaResolveLoop()
    defer { withExtendedLifetime(host) {} }
    let calls = 10_000
    var results: [CaseResult] = []
    for (name, key) in [("lua_resolve_singleton", "Logger"), ("lua_resolve_transient", "Store")] {
        let perLoop = try measureInterleavedSamples([
            ("plain_lua", { consume(try loop.call(plain, LuaValue(key), .integer(calls))) }),
            ("factoryhost", { consume(try loop.call(app, LuaValue(key), .integer(calls))) }),
        ]).map { ($0.0, $0.1.map { $0 / Double(calls) }) }
        var result = CaseResult(name: name, contenders: perLoop.map { ($0.0, median($0.1)) })
        result.samples = Dictionary(uniqueKeysWithValues: perLoop)
        results.append(result)
    }
    return results
}

/// The host, `loop(c, key, n)`, the factoryhost container and the plain one.
func luaResolveLoop() throws -> (host: FactoryHost, function: LuaFunction, app: LuaValue, plain: LuaValue) {
    let host = try FactoryHost(plugins: [BenchPlugin()])
    try host.run("""
        local b = require "factoryhost.bench"
        configuration "app" {
          register "Logger" { scope = "singleton", make = function() return b.Logger.new() end },
          register "Store" { deps = { logger = "Logger" }, make = function(d) return b.Store.new(d.logger) end },
        }
        plain = (function() \(plainContainerSource) end)().new()
        plain:register("Logger", { scope = "singleton", make = function() return b.Logger.new() end })
        plain:register("Store", { deps = { logger = "Logger" }, make = function(d) return b.Store.new(d.logger) end })
        app = container "app"
        function loop(c, key, n)
          local x
          for i = 1, n do x = c:resolve(key) end
          return x
        end
        """, name: "resolve.lua")
    return (host, try host.lua.global("loop").function(), try host.lua.global("app"), try host.lua.global("plain"))
}
