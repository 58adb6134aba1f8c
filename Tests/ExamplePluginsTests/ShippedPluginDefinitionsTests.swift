import ExamplePlugins
import Foundation
import Testing
@testable import FactoryScripting
import LuaBridge

/// What the core's tests check of their fixture plugins (FactoryScriptingTests'
/// ScriptDefinitionsTests and ClassShapeTests), checked of the plugins the stock
/// binary ships: every member they export is in `factoryhost types`' definitions,
/// and check's dry run sees each of their classes with the shape scripts get.
@Suite("The shipped plugins' definitions and class shapes")
struct ShippedPluginDefinitionsTests {
    /// Every class and interface of every shipped plugin module is in the
    /// definitions, with each member the type catalog knows.
    @Test func everyExportedMemberIsDefined() throws {
        let host = try FactoryHost(plugins: ExamplePlugins.all)
        let definitions = try ScriptDefinitions(host: host)
        let modules = try host.pluginModules()
        #expect(definitions.modules.map(\.name) == modules.map(\.name))
        #expect(modules.count == ExamplePlugins.all.count)
        let text = definitions.luaLanguageServerFile()
        var classes = 0, interfaces = 0
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
                    #expect(described.functions.contains { $0.name == entry.name })
                    #expect(text.contains("function \(module.name.replacingOccurrences(of: ".", with: "_")).\(entry.name)("))
                }
            }
        }
        #expect(classes > 20 && interfaces > 3, "the example plugins export \(classes) classes, \(interfaces) interfaces")
    }

    private func keys(_ table: LuaTable) throws -> Set<String> {
        Set(try table.pairs().compactMap { key, _ in if case .string(let text) = key { text.description } else { nil } })
    }

    /// The dry run makes a reaching plugin's class tables from their shape,
    /// not by installing them: the keys must be the same, or check would see
    /// a module other than the one scripts get.
    @Test func everyExportedClassHasTheShapeOfItsInstalledTable() throws {
        let host = try FactoryHost(plugins: ExamplePlugins.all)
        let catalog = host.types
        let placeholder = try host.lua.frameFunction("placeholder") { _ in 0 }
        var classes = 0
        for name in catalog.allNames where catalog.members(ofClass: name) != nil {
            let shape = try catalog.classShape(name, in: host.lua, placeholder: placeholder)
            let installed = try catalog.classTable(name, in: host.lua)
            #expect(try keys(shape) == keys(installed), "\(name)")
            #expect(try keys(shape).contains("new"), "\(name)")
            classes += 1
        }
        #expect(classes >= 8)
    }
}
