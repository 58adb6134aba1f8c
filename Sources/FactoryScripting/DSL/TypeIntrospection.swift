import LuaBridge

// What scripts can ask of the types they may name:
//
//   types()              -- { "AuthRemoteAPI", "Cache", … }: the exported types, sorted
//   describe "Cache"     -- { name = "Cache", kind = "class", plugin = "networking",
//                        --   new = { "integer" }, methods = { set = { args = { "string", "integer" } } },
//                        --   properties = { count = { type = "integer" } }, functions = { … } }
//   describe "PizzaFactory" -- { kind = "interface", methods = { smallPizza = { args = { "table" },
//                        --   names = { "ingredients" }, result = "Pizza" } }, properties = { creditService = … } }
extension FactoryHost {
    func installTypeIntrospection() throws {
        try lua.setGlobal("types", .function(lua.frameFunction("types") { [unowned self] frame in
            try self.installPendingPlugins(for: frame)
            let names = self.types.names.filter { self.types.type($0)?.kind != .primitive }
            try frame.push(.table(self.lua.array(names.map { LuaValue($0) })))
            return 1
        }))
        try lua.setGlobal("describe", .function(lua.frameFunction("describe") { [unowned self] frame in
            try self.installPendingPlugins(for: frame)
            let name = try frame.string(1)
            try frame.push(.table(self.typeDescription(try self.types.type(named: name))))
            return 1
        }))
    }

    /// `describe "Name"`'s table.
    func typeDescription(_ type: ScriptType) throws -> LuaTable {
        let table = try lua.newTable(hashCapacity: 8)
        try table.rawSet("name", LuaValue(type.name))
        try table.rawSet("kind", LuaValue(type.kind.rawValue))
        // Who exported it: a plugin's name ("networking"), or "factoryhost".
        if let exporter = types.exporter(of: type) {
            let plugin = exporter.hasPrefix("plugin '") && exporter.hasSuffix("'")
                ? String(exporter.dropFirst("plugin '".count).dropLast()) : exporter
            try table.rawSet("plugin", LuaValue(plugin))
        }
        switch type.kind {
        case .primitive:
            break
        case .interface:
            let methods = try lua.newTable()
            let shape = types.shape(ofInterface: type.name)
            for method in types.requiredMethods(ofInterface: type.name) ?? [] {
                let entry = try lua.newTable()
                if let signature = shape?.methods.first(where: { $0.name == method }) {
                    // Named arguments: what an assisted factory passes to the registration a method makes.
                    try entry.rawSet("args", .table(try lua.array(signature.parameters.map { LuaValue($0.type) })))
                    try entry.rawSet("names", .table(try lua.array(signature.parameters.map { LuaValue($0.name) })))
                    try entry.rawSet("result", LuaValue(signature.result))
                }
                try methods.rawSet(LuaValue(method), .table(entry))
            }
            try table.rawSet("methods", .table(methods))
            if let shape, !shape.properties.isEmpty {
                let properties = try lua.newTable(hashCapacity: shape.properties.count)
                for property in shape.properties {
                    let entry = try lua.newTable()
                    try entry.rawSet("type", LuaValue(property.type))
                    try properties.rawSet(LuaValue(property.name), .table(entry))
                }
                try table.rawSet("properties", .table(properties))
            }
        case .class:
            guard let members = types.members(ofClass: type.name) else { break }
            if members.hasConstructor {
                // The argument types, or `true` when the constructor reads them itself.
                try table.rawSet("new", try members.constructorArguments.map { .table(try lua.array($0.map { LuaValue($0) })) }
                                  ?? .boolean(true))
            }
            let methods = try lua.newTable(hashCapacity: members.methods.count)
            for method in members.methods {
                let entry = try lua.newTable()
                if let signature = members.signatures[method] {
                    try entry.rawSet("args", .table(try lua.array(signature.arguments.map { LuaValue($0) })))
                    if let result = signature.result { try entry.rawSet("result", LuaValue(result)) }
                }
                try methods.rawSet(LuaValue(method), .table(entry))
            }
            try table.rawSet("methods", .table(methods))
            let properties = try lua.newTable(hashCapacity: members.properties.count)
            for property in members.properties {
                let entry = try lua.newTable()
                try entry.rawSet("type", LuaValue(members.propertyTypes[property] ?? "value"))
                if members.settableProperties.contains(property) { try entry.rawSet("settable", .boolean(true)) }
                try properties.rawSet(LuaValue(property), .table(entry))
            }
            try table.rawSet("properties", .table(properties))
            if !members.classFunctions.isEmpty {
                let functions = try lua.newTable()
                for function in members.classFunctions { try functions.rawSet(LuaValue(function), LuaValue.table(try lua.newTable())) }
                try table.rawSet("functions", .table(functions))
            }
        }
        return table
    }
}

extension LuaState {
    /// A new Lua array of `values`.
    package func array(_ values: [LuaValue]) throws -> LuaTable {
        let table = try newTable(arrayCapacity: values.count)
        for (index, value) in values.enumerated() { try table.rawSet(.integer(index + 1), value) }
        return table
    }
}
