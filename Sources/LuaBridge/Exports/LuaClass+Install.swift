import CLua
import CLuaShim

extension LuaClass {
    /// Installs the type in `state` — its hidden metatable with methods,
    /// properties, `__tostring` and `__eq` — and returns its class table
    /// (`{ new = … }`), ready to be put in a module.
    ///
    /// - Throws: a `LuaError` of kind `.closed` when `state` is closed, or `.memory` when Lua runs out of
    ///   memory (or stack) while the tables and functions are made.
    public func install(in state: LuaState) throws -> LuaTable {
        let typeName = name
        let metatable = try state.metatable(for: typeName)
        let methodTable = try state.newTable()
        for method in methods {
            var function = LuaValue.function(try state.methodFunction("\(typeName):\(method.name)", receiver: Object.self, method.body))
            if method.memoizing {
                function = try state.withRawState { L -> LuaValue in
                    try state.push(function, in: L)
                    let status = fh_wrap_memoizing(L)
                    defer { fh_pop(L, 1) }
                    guard status == LUA_OK else { throw LuaError(.memory, "cannot install \(typeName):\(method.name): out of memory") }
                    return state.value(at: -1, in: L)
                }
            }
            try methodTable.rawSet(LuaValue(method.name), function)
        }
        let getters = self.getters, setters = self.setters
        let index: LuaValue
        if getters.isEmpty {
            // No properties: methods are found by the VM's own table lookup; a
            // miss reaches this handler, which says so (never a silent nil).
            let miss = try state.newTable()
            try miss.rawSet("__index", .function(state.frameFunction("\(typeName).__index") { frame in
                throw LuaError(.typeMismatch, "\(typeName) has no field \(frame.value(2))")
            }))
            try state.setMetatable(of: methodTable, to: miss)
            index = .table(methodTable)
        } else {
            let getter = try state.frameFunction("\(typeName).__index") { frame in
                let object = try frame.object(1, as: Object.self, typeName: typeName)
                let key = frame.value(2)
                guard case .string(let bytes) = key, let get = getters[bytes.description] else {
                    // Called from the C __index helper: the script's line is one level further up.
                    throw LuaRaise(frame.location(level: 2) + "\(typeName) has no field \(key)")
                }
                try get(object, frame)
                return 1
            }
            index = try state.withRawState { L -> LuaValue in
                try state.push(.table(methodTable), in: L)
                try state.push(.function(getter), in: L)
                fh_push_exported_index(L)
                defer { fh_pop(L, 1) }
                return state.value(at: -1, in: L)
            }
        }
        try metatable.rawSet("__index", index)
        try metatable.rawSet("__newindex", .function(state.frameFunction("\(typeName).__newindex") { frame in
            let object = try frame.object(1, as: Object.self, typeName: typeName)
            let key = frame.value(2)
            guard case .string(let bytes) = key, let set = setters[bytes.description] else {
                if case .string(let bytes) = key, getters[bytes.description] != nil {
                    throw LuaError(.typeMismatch, "property '\(bytes)' of \(typeName) is read-only")
                }
                throw LuaError(.typeMismatch, "\(typeName) has no writable property \(key)")
            }
            do {
                try set(object, frame, 3)
            } catch let error as LuaError where (error.kind == .typeMismatch || error.kind == .encoding) && error.argument?.position == 3 {
                // The setter read the value as argument 3 of __newindex: name the property instead.
                var reworded = LuaError(error.kind, "bad value for '\(bytes)' to '\(error.argument?.function ?? "")' (\(error.argument?.detail ?? ""))")
                reworded.problem = error.problem
                throw reworded
            }
            return 0
        }))
        let describe = self.describe
        try metatable.rawSet("__tostring", .function(state.frameFunction("\(typeName).__tostring") { frame in
            let object = try frame.object(1, as: Object.self, typeName: typeName)
            frame.push(describe?(object) ?? "\(typeName): \(ObjectIdentifier(object).debugDescription.addressPart)")
            return 1
        }))
        let equal = self.equal
        try metatable.rawSet("__eq", .function(state.frameFunction("\(typeName).__eq") { frame in
            guard let a = try? frame.object(1, as: Object.self, typeName: typeName),
                  let b = try? frame.object(2, as: Object.self, typeName: typeName) else {
                frame.push(false)
                return 1
            }
            frame.push(equal?(a, b) ?? (a === b))
            return 1
        }))

        let classTable = try state.newTable()
        let positional = constructorBody, named = namedConstructorBody
        let objectMetatable = try state.metatableReference(for: typeName)
        try classTable.rawSet("new", .function(state.frameFunction("\(typeName).new") { frame in
            let object: Object
            if let named, frame.count == 1, case .table(let table) = frame.value(1) {
                object = try named(table, frame)
            } else if let positional {
                object = try positional(frame)
            } else if named != nil {
                throw frame.typeError(1, expected: "table of named arguments")
            } else {
                throw LuaError(.typeMismatch, "\(typeName) cannot be created from Lua (it has no constructor)")
            }
            frame.pushObject(object, metatable: objectMetatable)
            return 1
        }))
        for (functionName, body) in classFunctions {
            try classTable.rawSet(LuaValue(functionName), .function(state.frameFunction("\(typeName).\(functionName)", body)))
        }
        try classTable.rawSet("typeName", LuaValue(typeName))
        return classTable
    }
}

extension String {
    /// "ObjectIdentifier(0x0000…)" → "0x0000…".
    fileprivate var addressPart: String {
        guard let open = firstIndex(of: "("), let close = lastIndex(of: ")") else { return self }
        return String(self[index(after: open)..<close])
    }
}
