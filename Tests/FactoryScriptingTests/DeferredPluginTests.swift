import FactoryRegistry
@testable import FactoryScripting
import LuaBridge
import Testing

/// Counts its installations, so tests can see when a deferred plugin installs.
final class InstallCounter: @unchecked Sendable { var count = 0 }

struct CountedPlugin: FactoryPlugin {
    let name = "counted"
    let counter: InstallCounter
    func install(in context: PluginContext) throws {
        counter.count += 1
        context.function("answer") { frame in
            frame.push(42)
            return 1
        }
    }
}

@Suite("Plugins installed when first needed")
struct DeferredPluginTests {
    @Test func aPlainScriptInstallsNothingAndAFirstRequireInstallsAll() throws {
        let counter = InstallCounter()
        let host = try FactoryHost()
        try host.installWhenNeeded([CountedPlugin(counter: counter), NetworkingFixturePlugin()])
        #expect(try host.run("return 1 + 1", name: "plain.lua") == [2])
        #expect(counter.count == 0)
        #expect(host.pluginInstaller.pluginNames == ["counted", "networking"])
        #expect(try host.run("return require('factoryhost.counted').answer(), require('factoryhost.networking').Cache ~= nil",
                             name: "req.lua") == [42, true])
        #expect(counter.count == 1)
        #expect(host.plugins.map(\.name) == ["counted", "networking"])
        #expect(try host.run("return require('factoryhost.counted').answer()", name: "again.lua") == [42])
        #expect(counter.count == 1)
    }

    @Test func theDSLAndSwiftUsesInstallThemToo() throws {
        for trigger in ["dsl", "container", "explicit"] {
            let counter = InstallCounter()
            let host = try FactoryHost()
            try host.installWhenNeeded([CountedPlugin(counter: counter), NetworkingFixturePlugin()])
            switch trigger {
            case "dsl":
                // `Cache` is the networking plugin's type: known at the first DSL call.
                try host.run("configuration 'app' { register 'Cache' { make = function() return require('factoryhost.networking').Cache.new() end } }",
                             name: "app.lua")
                #expect(try host.container("app").resolve(Cache.self).value(for: 1) == nil)
            case "container":
                #expect(throws: RegistryError.self) { _ = try host.container("missing") }
            default:
                try host.installPendingPlugins()
                #expect(host.types.type("Cache") != nil)
            }
            #expect(counter.count == 1, "trigger \(trigger)")
        }
    }

    @Test func readingTheHostsPropertiesInstallsNothing() throws {
        let counter = InstallCounter()
        let host = try FactoryHost()
        try host.installWhenNeeded([CountedPlugin(counter: counter), NetworkingFixturePlugin()])
        #expect(host.types.type("Cache") == nil)
        #expect(host.registry.configurationNames.isEmpty)
        #expect(host.plugins.isEmpty)
        #expect(counter.count == 0)
        try host.installPendingPlugins()
        #expect(counter.count == 1)
        #expect(host.types.type("Cache") != nil)
        #expect(host.plugins.map(\.name) == ["counted", "networking"])
    }

    @Test func aFailingDeferredInstallIsReportedAtEveryUse() throws {
        let host = try FactoryHost()
        try host.installWhenNeeded([NetworkingFixturePlugin(), DuplicateCachePlugin()])
        #expect(try host.run("return 'plain'", name: "plain.lua") == ["plain"])
        let expected = "type 'Cache' is exported twice: by plugin 'networking' and by plugin 'duplicate'"
        for code in ["configuration 'app' {}", "require 'factoryhost.networking'"] {
            let error = try #require(throwsLuaError { try host.run(code, name: "use.lua") })
            #expect(error.message.hasPrefix("use.lua:1: " + expected), "\(code): \(error.message)")
        }
        #expect(throwsLuaError { _ = try host.container("app") }?.message == expected)
        // check() says it too, and check's report names it as a problem of its own.
        #expect(throwsLuaError { _ = try host.check() }?.message == expected)
        let problems = host.problems(after: DeclarationRun())
        #expect(problems.map(\.kind) == ["pluginError"] && problems.first?.message == expected, "\(problems)")
    }

    private func throwsLuaError(_ body: () throws -> Void) -> LuaError? {
        do { try body() } catch let error as LuaError { return error } catch { return nil }
        return nil
    }
}
