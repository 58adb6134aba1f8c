import FactoryRegistry
import FactoryhostSupport

// The three forms `factoryhost types` writes: lua-language-server
// definitions (LuaCATS annotations), a luacheck standard, and JSON.

extension ScriptDefinitions {
    // MARK: lua-language-server

    /// One `---@meta` definition file: the DSL's and the test runner's
    /// globals, the script container, then every plugin class, interface and
    /// module. (`require "factoryhost.networking"` is typed by the library
    /// form, ``luaLanguageServerLibrary()``; with this file alone, cast it:
    /// `require "factoryhost.networking" --[[@as factoryhost.networking]]`.)
    public func luaLanguageServerFile() -> String {
        var out = String(decoding: PackageResources.dsl_definitions_lua, as: UTF8.self)
        for module in modules { out += "\n" + luaLanguageServerTypes(of: module) }
        return out
    }

    /// The same as a library directory for lua-language-server's
    /// `workspace.library`: `factoryhost.lua` (the globals and every type),
    /// and `factoryhost/<plugin>.lua` per module, so that
    /// `require "factoryhost.<plugin>"` is typed.
    public func luaLanguageServerLibrary() -> [(path: String, contents: String)] {
        var files = [(path: "factoryhost.lua", contents: luaLanguageServerFile())]
        for module in modules {
            let file = String(module.name.dropFirst("factoryhost.".count))
            files.append((path: "factoryhost/\(file).lua", contents: """
                ---@meta \(module.name)
                -- `require "\(module.name)"` (made by `factoryhost types`; its types are in factoryhost.lua).

                ---@type \(module.name)
                local module = {}
                return module

                """))
        }
        return files
    }

    private func luaLanguageServerTypes(of module: Module) -> String {
        var out = "-- Module \(module.name)\n\n"
        var moduleFields: [String] = []
        for type in module.classes {
            out += luaLanguageServerClass(type, module: module.name)
            moduleFields.append("---@field \(Self.fieldName(type.name)) \(module.name).\(type.name)")
        }
        for interface in module.interfaces {
            out += luaLanguageServerInterface(interface, module: module.name)
            moduleFields.append("---@field \(Self.fieldName(interface.name)) \(module.name).\(interface.name)")
        }
        out += "---The module `require \"\(module.name)\"`.\n---@class \(module.name)\n"
        out += moduleFields.map { $0 + "\n" }.joined()
        let table = Self.localName(module.name)
        out += "local \(table) = {}\n\n"
        for function in module.functions { out += luaLanguageServerFunction(function, on: table, method: false) }
        return out
    }

    private func luaLanguageServerClass(_ type: Class, module: String) -> String {
        var out = "---An object of the Swift class `\(type.name)` (exported by \(module)).\n---@class \(type.name)\n"
        for property in type.properties {
            // A field's description follows its type (`---@field total integer What it costs (read-only)`).
            let summary = property.summary.map { " " + $0.split(whereSeparator: \.isNewline).joined(separator: " ") } ?? ""
            out += "---@field \(Self.fieldName(property.name)) \(Self.luaLSType(property.type))\(summary)"
                + (property.settable ? "\n" : " (read-only)\n")
        }
        let instance = Self.localName(type.name)
        out += "local \(instance) = {}\n\n"
        for method in type.methods { out += luaLanguageServerFunction(method, on: instance, method: true, owner: type.name) }
        let classTable = Self.localName("\(module).\(type.name)")
        out += "---The class table of `\(type.name)`: `require \"\(module)\".\(type.name)`.\n---@class \(module).\(type.name)\n"
        out += "local \(classTable) = {}\n\n"
        if let constructor = type.constructor { out += luaLanguageServerFunction(constructor, on: classTable, method: false) }
        for function in type.classFunctions { out += luaLanguageServerFunction(function, on: classTable, method: false) }
        return out
    }

    private func luaLanguageServerInterface(_ interface: Interface, module: String) -> String {
        var out = "---The Swift protocol `\(interface.name)`: a Lua table with these methods implements it.\n"
        out += "---@class \(interface.name)\n"
        for method in interface.methods {
            out += "---@field \(Self.fieldName(method.name)) \(Self.functionType(method, receiver: interface.name))\n"
        }
        for property in interface.properties {
            out += "---@field \(Self.fieldName(property.name)) \(Self.luaLSType(property.type)) (read-only)\n"
        }
        out += "\n---`require \"\(module)\".\(interface.name)`: the interface's name, required methods, and a check.\n"
        out += "---@class \(module).\(interface.name)\n---@field name string\n---@field requires string[]\n"
        out += "---@field implement fun(implementation: table): \(interface.name)\n\n"
        return out
    }

    /// `function t:name(a, b) end` with its annotations, or a field of the
    /// table when the name cannot follow `t:` in Lua.
    private func luaLanguageServerFunction(_ function: Function, on table: String, method: Bool, owner: String? = nil) -> String {
        guard LuaIdentifier.isPlain(function.name) else {
            return "---@type \(Self.functionType(function, receiver: method ? owner : nil))\n"
                + "\(table)[\(luaQuoted(function.name))] = nil\n\n"
        }
        var out = function.summary.map { "---" + $0.split(separator: "\n").joined(separator: " ") + "\n" } ?? ""
        if let parameters = function.parameters {
            for parameter in parameters { out += "---@param \(parameter.name) \(Self.luaLSType(parameter.type))\n" }
        } else {
            out += "---@param ... any\n"
        }
        if let result = function.result { out += "---@return \(Self.luaLSType(result))\n" }
        else if function.parameters == nil { out += "---@return any\n" }
        let names = function.parameters.map { $0.map(\.name).joined(separator: ", ") } ?? "..."
        out += "function \(table)\(method ? ":" : ".")\(function.name)(\(names)) end\n\n"
        return out
    }

    private static func functionType(_ function: Function, receiver: String?) -> String {
        var parameters = receiver.map { ["self: \($0)"] } ?? []
        parameters += function.parameters.map { $0.map { "\($0.name): \(luaLSType($0.type))" } } ?? ["...: any"]
        let result = function.result.map { ": " + luaLSType($0) } ?? (function.parameters == nil ? ": any" : "")
        return "fun(\(parameters.joined(separator: ", ")))\(result)"
    }

    /// A type as scripts write it, as lua-language-server writes it:
    /// `[Handler]` → `Handler[]`, `{Handler}` → `table<string, Handler>`,
    /// `array of string` → `string[]`, `UserSession or nil` → `UserSession?`,
    /// `value` (unknown) → `any`; `string?` stays.
    static func luaLSType(_ type: String) -> String {
        if type.hasSuffix("?") { return luaLSType(String(type.dropLast())) + "?" }
        if type.hasSuffix(" or nil") { return luaLSType(String(type.dropLast(" or nil".count))) + "?" }
        if type.hasPrefix("array of ") { return luaLSType(String(type.dropFirst("array of ".count))) + "[]" }
        if type.hasPrefix("table of ") {
            let parts = type.dropFirst("table of ".count).split(separator: " ", omittingEmptySubsequences: false)
            if let to = parts.firstIndex(of: "to"), to > 0, to < parts.count - 1 {
                return "table<\(luaLSType(parts[..<to].joined(separator: " "))), \(luaLSType(parts[(to + 1)...].joined(separator: " ")))>"
            }
        }
        if type.hasPrefix("["), type.hasSuffix("]"), type.count > 2 { return luaLSType(String(type.dropFirst().dropLast())) + "[]" }
        if type.hasPrefix("{"), type.hasSuffix("}"), type.count > 2 {
            return "table<string, \(luaLSType(String(type.dropFirst().dropLast())))>"
        }
        if type == "value" || !isIdentifier(type) { return "any" }
        return type
    }

    private static func fieldName(_ name: String) -> String {
        LuaIdentifier.isPlain(name) ? name : "[\(luaQuoted(name))]"
    }

    /// A Lua local for a type's table: its name with what Lua does not allow replaced.
    private static func localName(_ name: String) -> String {
        let plain = String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
        return plain.first?.isNumber == false && !LuaIdentifier.isKeyword(plain) ? plain : "_" + plain
    }

    // MARK: luacheck

    /// A luacheck standard: the DSL's globals, and in `spec` the test
    /// runner's, for `.luacheckrc`:
    ///
    /// ```lua
    /// local factoryhost = dofile "types/factoryhost.luacheck.lua"
    /// stds.factoryhost, stds.factoryhost_spec = factoryhost, factoryhost.spec
    /// std = "lua54+factoryhost"
    /// files["**/*_spec.lua"] = { std = "+factoryhost_spec" }
    /// ```
    public func luacheckStandard() -> String {
        func list(_ names: [String]) -> String { names.map(luaQuoted).joined(separator: ", ") }
        return """
            -- factoryhost's globals as luacheck standards (made by `factoryhost types --format luacheck`).
            -- In .luacheckrc:
            --   local factoryhost = dofile "types/factoryhost.luacheck.lua"
            --   stds.factoryhost, stds.factoryhost_spec = factoryhost, factoryhost.spec
            --   std = "lua54+factoryhost"
            --   files["**/*_spec.lua"] = { std = "+factoryhost_spec" }
            return {
              read_globals = { \(list(Self.scriptGlobals)) },
              spec = { read_globals = { \(list(Self.specGlobals)) } },
            }

            """
    }

    // MARK: JSON

    /// The same data as JSON, for other tools: `{ "globals": { "script": […],
    /// "spec": […] }, "modules": [ { "name", "classes", "interfaces",
    /// "functions" } ] }`; a function's `parameters` is null when it reads
    /// its own arguments.
    public func json() -> String {
        func strings(_ values: [String]) -> String { "[" + values.map(jsonString).joined(separator: ", ") + "]" }
        func function(_ function: Function) -> String {
            let parameters = function.parameters.map {
                "[" + $0.map { "{\"name\": \(jsonString($0.name)), \"type\": \(jsonString($0.type))}" }.joined(separator: ", ") + "]"
            } ?? "null"
            return "{\"name\": \(jsonString(function.name)), \"parameters\": \(parameters), \"result\": \(function.result.map(jsonString) ?? "null")}"
        }
        func functions(_ list: [Function]) -> String { "[" + list.map(function).joined(separator: ", ") + "]" }
        func properties(_ list: [Property]) -> String {
            "[" + list.map { "{\"name\": \(jsonString($0.name)), \"type\": \(jsonString($0.type)), \"settable\": \($0.settable)}" }
                .joined(separator: ", ") + "]"
        }
        let moduleTexts = modules.map { module -> String in
            let classes = module.classes.map { type in
                "      {\"name\": \(jsonString(type.name)), \"constructor\": \(type.constructor.map(function) ?? "null"), "
                    + "\"classFunctions\": \(functions(type.classFunctions)), \"methods\": \(functions(type.methods)), "
                    + "\"properties\": \(properties(type.properties))}"
            }
            let interfaces = module.interfaces.map {
                "      {\"name\": \(jsonString($0.name)), \"methods\": \(functions($0.methods)), \"properties\": \(properties($0.properties))}"
            }
            return "    {\"name\": \(jsonString(module.name)),\n     \"classes\": [\n\(classes.joined(separator: ",\n"))\n     ],\n"
                + "     \"interfaces\": [\n\(interfaces.joined(separator: ",\n"))\n     ],\n     \"functions\": \(functions(module.functions))}"
        }
        return "{\n  \"globals\": {\"script\": \(strings(Self.scriptGlobals)), \"spec\": \(strings(Self.specGlobals))},\n"
            + "  \"modules\": [\n\(moduleTexts.joined(separator: ",\n"))\n  ]\n}\n"
    }
}

/// `text` as a Lua string literal.
func luaQuoted(_ text: String) -> String { TextEscaping.luaLiteral.quoted(text) }
