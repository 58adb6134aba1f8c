import FactoryRegistry
@testable import FactoryScripting
import LuaBridge
import Foundation
import Testing

/// A Swift plugin that registers a Swift factory scripts depend on.
struct ClockPlugin: FactoryPlugin {
    let name = "clock"
    func install(in context: PluginContext) throws {
        try context.configuration("base").register(Cache.self, scope: .singleton) { _ in
            let cache = Cache()
            cache.store("from Swift", for: 0)
            return cache
        }
        context.function("now") { frame in
            frame.push(42)
            return 1
        }
    }
}

@Suite("Swift and Lua plugins")
struct PluginTests {
    @Test func swiftPluginFactoriesAndModuleFunctionsServeScripts() throws {
        let host = try FactoryHost(plugins: [NetworkingFixturePlugin(), SessionFixturePlugin(), ClockPlugin()])
        let results = try host.run("""
            local net = require "factoryhost.networking"
            local clock = require "factoryhost.clock"
            configuration "app" {
              extends = "base",
              register "HTTPSession" { make = function() return net.HTTPSession.new { baseURL = "b" } end },
              register "MovieLoader" { deps = { cache = "Cache", session = "HTTPSession" },
                make = function(d) return net.MovieLoader.new(d.cache, d.session) end },
            }
            return container("app"):resolve("MovieLoader"):load(0), clock.now(), require "factoryhost.clock" == clock
            """, name: "app.lua")
        #expect(results == ["from Swift", 42, true])
        #expect(message { _ = try FactoryHost(plugins: [ClockPlugin(), ClockPlugin()]) } == "plugin 'clock' is installed twice")
        #expect(message { _ = try FactoryHost(plugins: [NetworkingFixturePlugin(), DuplicateCachePlugin()]) }
                == "type 'Cache' is exported twice: by plugin 'networking' and by plugin 'duplicate'")
    }

    @Test func luaPluginsLoadInDependencyOrder() throws {
        let root = try pluginTree([
            "a/manifest.lua": "return { name = 'analytics', version = '1.0.0', requires = { 'tracking', 'networking' } }",
            "a/init.lua": "order = (order or '') .. 'analytics '\nconfiguration 'app' { register 'Cache#analytics' { make = function() return require('factoryhost.networking').Cache.new() end } }",
            "t/manifest.lua": "return { name = 'tracking', version = '2.1' }",
            "t/init.lua": "order = (order or '') .. 'tracking '",
            "notes/readme.txt": "not a plugin",
        ])
        let host = try makeHost()
        let loaded = try host.loadLuaPlugins(searchPath: [root])
        #expect(loaded.map(\.name) == ["tracking", "analytics"])
        #expect(try host.lua.global("order") == "tracking analytics ")
        #expect(host.plugins.map(\.name) == ["networking", "session", "tracking", "analytics"])
        #expect(try host.registry.registrations(in: "app").map(\.origin.description) == ["\(root)/a/init.lua:2"])
    }

    @Test(arguments: [
        (["p/manifest.lua": "return { name = 'p', version = '1.0', requires = { 'ghost' } }", "p/init.lua": ""],
         "{root}/p/manifest.lua: plugin 'p' requires 'ghost', which is not installed (plugins: networking, p, session)"),
        // Required by its folder's name, not its manifest's.
        (["p/manifest.lua": "return { name = 'p', version = '1', requires = { 'tracking' } }", "p/init.lua": "",
          "tracking/manifest.lua": "return { name = 'analytics', version = '1' }", "tracking/init.lua": ""],
         "{root}/p/manifest.lua: plugin 'p' requires 'tracking', which is not installed (plugins: analytics, networking, p, session)"
            + " (the folder 'tracking' holds the plugin 'analytics': a plugin is required by the name its manifest gives)"),
        (["a/manifest.lua": "return { name = 'a', version = '1', requires = { 'b' } }", "a/init.lua": "",
          "b/manifest.lua": "return { name = 'b', version = '1', requires = { 'a' } }", "b/init.lua": ""],
         "plugin requirement cycle: a → b → a ({root}/a/manifest.lua, {root}/b/manifest.lua)"),
        (["p/manifest.lua": "return { name = 'p' }"], "{root}/p/manifest.lua: bad plugin manifest: 'version' must be a version string such as \"1.0.0\""),
        (["p/manifest.lua": "return { name = 'p', version = '1', require = {} }"],
         "{root}/p/manifest.lua: bad plugin manifest: unknown field 'require' (fields: name, requires, version)"),
        (["p/manifest.lua": "name = 'p'"],
         "{root}/p/manifest.lua: bad plugin manifest: it must return a table { name = …, version = …, requires = { … } } (it returned nothing)"),
        // Bounded, escaped, and only ASCII digits in a version (#38).
        (["p/manifest.lua": "return { name = 'p', version = '1', ['\(String(repeating: "k", count: 30000))'] = 1 }"],
         "{root}/p/manifest.lua: bad plugin manifest: unknown field '\(String(repeating: "k", count: 60))… (30000 bytes)' (fields: name, requires, version)"),
        (["p/manifest.lua": "return { name = 'p\\27]0;title\\7', version = '1' }"],
         "{root}/p/manifest.lua: bad plugin manifest: 'name' must be a plugin name — letters, digits, _ and -, at most 64 (got 'p\\27]0;title\\7')"),
        // A newline stays written, not a line of its own that could pass for another message.
        (["p/manifest.lua": "return { name = 'p', version = '1', requires = { 'a\\nfactoryhost: forged' } }"],
         "{root}/p/manifest.lua: bad plugin manifest: 'requires' must list plugin names — letters, digits, _ and -, at most 64 (got 'a\\nfactoryhost: forged')"),
        (["p/manifest.lua": "return { name = 'p', version = '١.٢' }"],
         "{root}/p/manifest.lua: bad plugin manifest: 'version' must be a version string such as \"1.0.0\""),
        (["p/manifest.lua": "return { name = 'p', version = '1', requires = { '\(String(repeating: "r", count: 100000))' } }"],
         "{root}/p/manifest.lua: bad plugin manifest: 'requires' must list plugin names — letters, digits, _ and -, at most 64 (got '\(String(repeating: "r", count: 60))… (100000 bytes)')"),
        (["p/manifest.lua": "return { name = 'p', version = '1', requires = 'x' }"],
         "{root}/p/manifest.lua: bad plugin manifest: 'requires' must be a list of plugin names (got string)"),
        (["p/manifest.lua": "return {"], "{root}/p/manifest.lua: bad plugin manifest: {root}/p/manifest.lua:1: unexpected symbol near <eof>"),
        (["p/manifest.lua": "return { name = 'p', version = '1' }"], "{root}/p/manifest.lua: plugin 'p' has no init.lua"),
        (["p/manifest.lua": "return { name = 'session', version = '1' }", "p/init.lua": ""],
         "{root}/p/manifest.lua: plugin 'session' is already installed (a Swift plugin has that name)"),
        (["a/manifest.lua": "return { name = 'x', version = '1' }", "b/manifest.lua": "return { name = 'x', version = '1' }"],
         "two plugins are named 'x': {root}/a/manifest.lua and {root}/b/manifest.lua"),
        (["a/manifest.lua": "return { name = 'a', version = '1' }",
          "a/init.lua": "configuration 'app' { register 'Cache' { make = function() end } }",
          "b/manifest.lua": "return { name = 'b', version = '1' }",
          "b/init.lua": "\nconfiguration 'app' { register 'Cache' { make = function() end } }"],
         "{root}/b/init.lua:2: Cache is registered twice in configuration 'app'\n  first at {root}/a/init.lua:1\n  again at {root}/b/init.lua:2 (say it overrides to replace the first)"),
    ])
    func badPluginsAreClearErrors(files: [String: String], expected: String) throws {
        let root = try pluginTree(files)
        let host = try makeHost()
        let text = message { try host.loadLuaPlugins(searchPath: [root]) }
        #expect(text.components(separatedBy: "\nstack traceback:").first == expected.replacingOccurrences(of: "{root}", with: root))
    }

    /// 8,000 plugins, each requiring the next, are ordered without
    /// recursion (it overflowed the stack: SIGSEGV) in linear time.
    @Test func aLongChainOfRequirementsIsOrdered() throws {
        var files: [String: String] = [:]
        let count = 8_000
        for i in 0..<count {
            let requires = i < count - 1 ? ", requires = { 'p\(i + 1)' }" : ""
            files["p\(i)/manifest.lua"] = "return { name = 'p\(i)', version = '1'\(requires) }"
            files["p\(i)/init.lua"] = i == 0 ? "first_loaded = last_loaded" : (i == count - 1 ? "last_loaded = true" : "")
        }
        let root = try pluginTree(files)
        let host = try makeHost()
        try host.loadLuaPlugins(searchPath: [root])
        #expect(host.plugins.count == count + 2)
        #expect(host.plugins.last?.name == "p0")              // each after what it requires
        #expect(try host.lua.global("first_loaded") == .boolean(true))
    }

    @Test func aMissingPluginDirectoryIsAnError() throws {
        let host = try makeHost()
        #expect(message { try host.loadLuaPlugins(searchPath: ["/nonexistent/plugins"]) }
                == "plugin path entry '/nonexistent/plugins' is not a directory")
    }
}

/// A plugin that exports a name another plugin already exports.
struct DuplicateCachePlugin: FactoryPlugin {
    let name = "duplicate"
    func install(in context: PluginContext) throws {
        try context.export(LuaClass<Cache>().constructor { Cache() })
    }
}

/// Writes `files` (relative path → text) under a new directory; returns it.
func pluginTree(_ files: [String: String]) throws -> String {
    let root = "/tmp/fh-plugins-\(UInt64.random(in: 0...UInt64.max))"
    try host_mkdir(root)
    for (path, text) in files { try host_write(root + "/" + path, text) }
    return root
}

@Suite("check's stopped plugins are made from class shapes")
struct ClassShapeTests {
    private func keys(_ table: LuaTable) throws -> Set<String> {
        Set(try table.pairs().compactMap { key, _ in if case .string(let text) = key { text.description } else { nil } })
    }

    @Test func everyExportedClassHasTheShapeOfItsInstalledTable() throws {
        // The dry run makes a reaching plugin's class tables from their shape,
        // not by installing them: the keys must be the same, or check would
        // see a module other than the one scripts get.
        // (The shipped plugins' classes are checked the same way in ExamplePluginsTests.)
        let host = try FactoryHost(plugins: FixturePlugins.all)
        let catalog = host.types
        let placeholder = try host.lua.frameFunction("placeholder") { _ in 0 }
        var classes: [String] = []
        for name in catalog.allNames where catalog.members(ofClass: name) != nil {
            let shape = try catalog.classShape(name, in: host.lua, placeholder: placeholder)
            let installed = try catalog.classTable(name, in: host.lua)
            #expect(try keys(shape) == keys(installed), "\(name)")
            #expect(try keys(shape).contains("new"), "\(name)")
            classes.append(name)
        }
        // Every class of the fixture plugins (Pizza's class function among their members), and the host's own.
        #expect(Set(classes) == ["Cache", "CreditService", "HTTPSession", "MovieLoader", "Pizza", "PizzaShop", "SignInViewModel", "UserSession",
                                 "Container", "Scope"], "\(classes)")
    }

    @Test func aStoppedPluginsClassFunctionsStopTheDryRun() throws {
        let host = try FactoryHost(plugins: FixturePlugins.all)
        let dir = NSTemporaryDirectory() + "fh-shape-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let script = dir + "/reach.lua"
        try host_write(script, """
            local net = require "factoryhost.networking"
            assert(net.Cache.typeName == "Cache" and type(net.Cache.new) == "function")
            configuration "app" { }
            local cache = net.Cache.new()
            configuration "never" { }
            """)
        let run = host.declare(file: script)
        #expect(run.error == nil, "\(String(describing: run.error))")
        #expect(run.stop?.origin?.line == 4 && run.stop?.origin?.file.hasSuffix("reach.lua") == true)
        #expect(run.stop?.message.hasPrefix("Cache.new: the networking plugin") == true, "\(String(describing: run.stop))")
        #expect(run.unreached.map(\.declaration) == ["configuration \"never\""])
    }
}
