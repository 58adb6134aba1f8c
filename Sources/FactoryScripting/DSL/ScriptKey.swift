import FactoryRegistry
import LuaBridge

/// A registration key as scripts write it: `Type` or `Type#name`.
struct ScriptKey {
    let type: ScriptType
    let name: String?
    var serviceKey: ServiceKey { ServiceKey(type.serviceType, name: name) }
    var description: String { name.map { "\(type.name)#\($0)" } ?? type.name }

    init(parsing text: String, catalog: TypeCatalog, name explicitName: String? = nil) throws {
        try ScriptNames.check(text, what: "a key", factor: 2)
        if let explicitName { try ScriptNames.check(explicitName, what: "a registration name") }
        // Read as bytes: Characters (and Substrings) cost more, and keys are parsed by the thousand.
        func isCollection(_ key: String) -> Bool {
            let first = key.utf8.first, last = key.utf8.last
            return (first == UInt8(ascii: "[") && last == UInt8(ascii: "]")) || (first == UInt8(ascii: "{") && last == UInt8(ascii: "}"))
        }
        var typeName = text, name: String? = nil
        // `[Type]` / `{Type}` first: a '#' inside the brackets is the type's (and an error).
        if !isCollection(text), let hash = text.utf8.firstIndex(of: UInt8(ascii: "#")) {
            typeName = String(text[..<hash])
            name = String(text[text.utf8.index(after: hash)...])
            guard name?.isEmpty == false else { throw LuaError(.typeMismatch, "'\(text)': the name after '#' is empty") }
        }
        if let explicitName {
            if let name, name != explicitName {
                throw LuaError(.typeMismatch, "'\(text)' names '\(name)', but the registration also says name = '\(explicitName)'")
            }
            name = explicitName
        }
        // `[Type]` / `{Type}`: the list or map of Type's contributions.
        if isCollection(typeName), typeName.utf8.count > 2 {
            guard name == nil else { throw LuaError(.typeMismatch, "'\(text)': a collection has no name") }
            let inner = String(typeName.dropFirst().dropLast())
            guard !inner.contains("#") else {
                throw LuaError(.typeMismatch, "'\(text)': a collection is of a type, without a name (write [\(inner.prefix { $0 != "#" })])")
            }
            let element = try catalog.type(named: inner)
            self.type = catalog.collectionType(of: element, map: typeName.utf8.first == UInt8(ascii: "{"))
            self.name = nil
            return
        }
        self.type = try catalog.type(named: typeName)
        self.name = name
    }
}
