import Foundation
import Testing
@testable import FactoryScripting
@testable import LuaBridge

/// `factoryhost types`: what it says scripts can name is what a host gives
/// them — every global, every plugin class member and interface method —
/// and each form it writes is what its consumer reads.
@Suite("Editor definitions (factoryhost types)")
struct ScriptDefinitionsTests {
    /// The DSL globals the definitions list are exactly those a host adds to
    /// a plain Lua state.
    @Test func theScriptGlobalsAreTheHostsGlobals() throws {
        let plain = try LuaState()
        let host = try FactoryHost(plugins: FixturePlugins.all)
        let globalNames = "local names = {} for k in pairs(_G) do names[#names + 1] = k end table.sort(names) return table.concat(names, ' ')"
        func names(_ state: LuaState) throws -> Set<String> {
            Set(try String.fromLua(state.run(globalNames, name: "globals").first ?? .nil).split(separator: " ").map(String.init))
        }
        let before = try names(plain), after = try names(host.lua)
        #expect(after.subtracting(before) == Set(ScriptDefinitions.scriptGlobals))
    }

    /// Every class, interface and function of every plugin module is in the
    /// definitions, with each member the type catalog knows.
    /// (The shipped plugins' definitions are checked the same way in ExamplePluginsTests.)
    @Test func everyExportedMemberIsDefined() throws {
        // The clock plugin (PluginTests) adds a module function.
        let plugins = FixturePlugins.all + [ClockPlugin()]
        let host = try FactoryHost(plugins: plugins)
        let definitions = try ScriptDefinitions(host: host)
        let modules = try host.pluginModules()
        #expect(definitions.modules.map(\.name) == modules.map(\.name))
        #expect(modules.count == plugins.count)
        let text = definitions.luaLanguageServerFile()
        var classes = 0, interfaces = 0, functions = 0
        for (module, described) in zip(modules, definitions.modules) {
            for entry in module.entries {
                switch entry.kind {
                case .class:
                    classes += 1
                    let members = try #require(host.types.members(ofClass: entry.name))
                    let type = try #require(described.classes.first { $0.name == entry.name })
                    #expect(type.methods.map(\.name) == members.methods)
                    #expect(type.properties.map(\.name) == members.properties)
                    #expect(type.classFunctions.map(\.name) == members.classFunctions)
                    #expect((type.constructor != nil) == members.hasConstructor)
                    #expect(text.contains("---@class \(entry.name)\n"), "\(entry.name)")
                    for method in members.methods { #expect(text.contains("function \(entry.name):\(method)("), "\(entry.name):\(method)") }
                    for property in members.properties { #expect(text.contains("---@field \(property) "), "\(entry.name).\(property)") }
                    let classTable = module.name.replacingOccurrences(of: ".", with: "_") + "_" + entry.name
                    for function in members.classFunctions { #expect(text.contains("function \(classTable).\(function)("), "\(classTable).\(function)") }
                    if members.hasConstructor { #expect(text.contains("function \(classTable).new("), "\(classTable).new") }
                    #expect(text.contains("---@field \(entry.name) \(module.name).\(entry.name)\n"))
                case .interface:
                    interfaces += 1
                    let required = try #require(host.types.requiredMethods(ofInterface: entry.name))
                    let interface = try #require(described.interfaces.first { $0.name == entry.name })
                    #expect(interface.methods.map(\.name) == required)
                    for method in required { #expect(text.contains("---@field \(method) fun(self: \(entry.name)"), "\(entry.name).\(method)") }
                case .function:
                    functions += 1
                    #expect(described.functions.contains { $0.name == entry.name })
                    #expect(text.contains("function \(module.name.replacingOccurrences(of: ".", with: "_")).\(entry.name)("))
                }
            }
        }
        #expect(classes == 8 && interfaces == 2 && functions == 1,
                "the fixture plugins export \(classes) classes, \(interfaces) interfaces, \(functions) functions")
    }

    /// The script container and scopes: every method and property they have
    /// is defined, and the DSL part defines every global (DSL and spec).
    @Test func theContainerAndEveryGlobalAreDefined() throws {
        let host = try FactoryHost(plugins: FixturePlugins.all)
        let text = try ScriptDefinitions(host: host).luaLanguageServerFile()
        for (members, name) in [(host.containerClass().members, "Container"), (host.scopeClass().members, "OpenScope")] {
            for method in members.methods { #expect(text.contains("function \(name):\(method)("), "\(name):\(method)") }
            for property in members.properties { #expect(text.contains("---@field \(property) "), "\(name).\(property)") }
        }
        let defined = Set(text.split(separator: "\n").compactMap { line -> String? in
            if line.hasPrefix("function "), let open = line.firstIndex(of: "("), !line.contains(":"), !line.contains(".") {
                return String(line[line.index(line.startIndex, offsetBy: 9)..<open])
            }
            if let equals = line.firstIndex(of: "="), line.hasSuffix(" = {}"), !line.hasPrefix("local ") {
                return String(line[..<equals]).trimmingCharacters(in: .whitespaces)
            }
            return nil
        })
        #expect(defined == Set(ScriptDefinitions.scriptGlobals + ScriptDefinitions.specGlobals))
    }

    /// The file is Lua a state can load; the luacheck standard returns the
    /// two lists; the library form types each module's require.
    @Test func eachFormIsWhatItsReaderReads() throws {
        let host = try FactoryHost(plugins: FixturePlugins.all)
        let definitions = try ScriptDefinitions(host: host)
        let lua = try LuaState()
        _ = try lua.load(definitions.luaLanguageServerFile(), name: "factoryhost.lua")
        let standard = try #require(try lua.run(definitions.luacheckStandard(), name: "std").first?.table())
        let read = try standard.rawGet("read_globals").table()
        #expect(try read.array().map { try String.fromLua($0) } == ScriptDefinitions.scriptGlobals)
        let spec = try standard.rawGet("spec").table().rawGet("read_globals").table()
        #expect(try spec.array().map { try String.fromLua($0) } == ScriptDefinitions.specGlobals)
        let library = definitions.luaLanguageServerLibrary()
        #expect(library.map(\.path) == ["factoryhost.lua"] + definitions.modules.map {
            "factoryhost/" + $0.name.dropFirst("factoryhost.".count) + ".lua"
        })
        for (file, module) in zip(library.dropFirst(), definitions.modules) {
            #expect(file.contents.hasPrefix("---@meta \(module.name)\n"))
            #expect(file.contents.contains("---@type \(module.name)\nlocal module = {}\nreturn module"))
            _ = try lua.load(file.contents, name: file.path)
        }
    }

    /// Types as scripts write them, as lua-language-server writes them.
    @Test(arguments: [
        ("integer", "integer"), ("Cache", "Cache"), ("string?", "string?"), ("UserSession or nil", "UserSession?"),
        ("array of string", "string[]"), ("[Handler]", "Handler[]"), ("{Handler}", "table<string, Handler>"),
        ("table of string to integer", "table<string, integer>"), ("value", "any"), ("table of named arguments", "any"),
        ("array of UserSession or nil", "UserSession[]?"),
    ])
    func typesAreTranslated(written: String, expected: String) {
        #expect(ScriptDefinitions.luaLSType(written) == expected)
    }

    /// Parameters known by type get names from it, numbered when repeated,
    /// never a Lua keyword.
    @Test func parameterNamesComeFromTypes() {
        #expect(ScriptDefinitions.parameters(ofTypes: ["Cache", "HTTPSession"]).map(\.name) == ["cache", "httpSession"])
        #expect(ScriptDefinitions.parameters(ofTypes: ["string", "string", "integer"]).map(\.name) == ["value1", "value2", "value3"])
        #expect(ScriptDefinitions.parameters(ofTypes: ["URL", "A"]).map(\.name) == ["url", "a"])
        #expect(ScriptDefinitions.parameters(ofTypes: ["table of named arguments"]).map(\.name) == ["arguments"])
        #expect(ScriptDefinitions.parameters(ofTypes: ["End"]).map(\.name) == ["end_"])
        #expect(luaQuoted("a\"b\\c\n\u{1}2") == "\"a\\\"b\\\\c\\n\\0012\"")
    }
}

/// A class whose property has a doc comment's summary.
private final class Thermostat: LuaExportable {
    static let luaTypeName = "Thermostat"
    var level = 20
}

private struct ThermostatPlugin: FactoryPlugin {
    let name = "thermostat"
    func install(in context: PluginContext) throws {
        try context.export(LuaClass<Thermostat>()
            .property("level", get: { $0.level }, set: { object, value in object.level = value })
            .documented("level", summary: "The temperature it keeps,\nin degrees"))
    }
}

@Suite("A property's description")
struct PropertySummaryDefinitionsTests {
    @Test func aPropertysSummaryFollowsItsType() throws {
        let host = try FactoryHost(plugins: [ThermostatPlugin()])
        let text = try ScriptDefinitions(host: host).luaLanguageServerFile()
        #expect(text.contains("---@field level integer The temperature it keeps, in degrees\n"), "\(text)")
    }
}
