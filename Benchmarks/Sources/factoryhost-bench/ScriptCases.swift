import FactoryRegistry
import FactoryScripting
import LuaBridge

// The graph9 classes, exported so Lua factories can build them.
extension Logger: LuaExportable { static let luaTypeName = "Logger" }
extension Cache: LuaExportable { static let luaTypeName = "Cache" }
extension HTTPSession: LuaExportable { static let luaTypeName = "HTTPSession" }
extension Store: LuaExportable { static let luaTypeName = "Store" }
extension MovieLoader: LuaExportable { static let luaTypeName = "MovieLoader" }
extension ViewModel: LuaExportable { static let luaTypeName = "ViewModel" }

/// `require "factoryhost.bench"`: the graph9 types.
struct BenchPlugin: FactoryPlugin {
    let name = "bench"
    func install(in context: PluginContext) throws {
        try context.export(LuaClass<Logger>().constructor { Logger() })
        try context.export(LuaClass<Cache>().constructor { Cache() })
        try context.export(LuaClass<HTTPSession>().constructor { HTTPSession() })
        try context.export(LuaClass<Store>().constructor { (logger: Logger) in Store(logger: logger) })
        try context.export(LuaClass<MovieLoader>().constructor { (cache: Cache, session: HTTPSession) in
            MovieLoader(cache: cache, session: session)
        })
        try context.export(LuaClass<ViewModel>().constructor { (a: MovieLoader, b: MovieLoader, store: Store) in
            ViewModel(a: a, b: b, store: store)
        })
    }
}

/// The graph9 configuration with every factory a Lua function.
let graph9Script = """
    local b = require "factoryhost.bench"
    configuration "app" {
      register "Logger" { make = function() return b.Logger.new() end },
      register "Cache" { make = function() return b.Cache.new() end },
      register "HTTPSession" { make = function() return b.HTTPSession.new() end },
      register "Store" { deps = { logger = "Logger" }, make = function(d) return b.Store.new(d.logger) end },
      register "MovieLoader" { deps = { cache = "Cache", session = "HTTPSession" },
        make = function(d) return b.MovieLoader.new(d.cache, d.session) end },
      register "ViewModel" { deps = { a = "MovieLoader", b = "MovieLoader", store = "Store" },
        make = function(d) return b.ViewModel.new(d.a, d.b, d.store) end },
    }
    """

/// A host whose `app` container builds graph9 through Lua factories.
func luaGraph9Container() throws -> (FactoryHost, FactoryRegistry.Container) {
    let host = try FactoryHost(plugins: [BenchPlugin()])
    try host.run(graph9Script, name: "graph9.lua")
    return (host, try host.container("app"))
}

/// A script of `count` registrations, each depending on the one before.
func generatedScript(_ count: Int) -> String {
    var lines = ["local b = require \"factoryhost.bench\"", "configuration \"app\" {",
                 "  register \"Logger#r0\" { make = function() return b.Logger.new() end },"]
    for i in 1..<count {
        lines.append("  register \"Logger#r\(i)\" { deps = { prev = \"Logger#r\(i - 1)\" }, make = function() return b.Logger.new() end },")
    }
    lines.append("}")
    return lines.joined(separator: "\n")
}

/// `load1000`, `load10000`: a new host loads a generated script of that many
/// registrations and checks it (median of 7 runs, ns per whole load).
func loadCases() throws -> [CaseResult] {
    var results: [CaseResult] = []
    for count in [1000, 10_000] {
        let script = generatedScript(count)
        var samples: [Double] = []
        for _ in 0..<7 {
            let start = now()
            let host = try FactoryHost(plugins: [BenchPlugin()])
            try host.run(script, name: "generated.lua")
            let problems = try host.check()
            precondition(problems.isEmpty, "generated script has problems: \(problems)")
            samples.append(Double(now() - start))
        }
        var result = CaseResult(name: "load\(count)")
        result.add("factoryhost", median(samples))
        results.append(result)
    }
    return results
}
