import LuaBridge

/// A table an entity model defines: its name and typed columns (`id` is implicit).
struct EntityTable: Equatable {
    let name: String
    let columns: [(name: String, type: String)]

    static func == (a: EntityTable, b: EntityTable) -> Bool { a.name == b.name }

    var createStatement: String {
        "CREATE TABLE IF NOT EXISTS \(name) (id INTEGER PRIMARY KEY"
            + columns.map { ", \($0.name) \($0.type)" }.joined() + ")"
    }
}

/// The article's entity models as schema modules — Users, Invoices, Billing —
/// merged into one model for a container, as `NSManagedObjectModel` merges
/// the models of a bundle.
///
/// ```lua
/// local model = db.ManagedObjectModel.merged { "Users", "Billing" }
/// print(model.entities)   --> { "users", "payments" }
/// ```
public final class ManagedObjectModel: LuaExportable, Sendable {
    public static let luaTypeName = "ManagedObjectModel"

    static let modules: [String: [EntityTable]] = [
        "Users": [EntityTable(name: "users", columns: [("name", "TEXT NOT NULL"), ("email", "TEXT")])],
        "Invoices": [EntityTable(name: "invoices", columns: [("customer", "TEXT NOT NULL"), ("amount", "REAL NOT NULL")])],
        "Billing": [EntityTable(name: "payments", columns: [("invoice", "INTEGER"), ("amount", "REAL NOT NULL")])],
    ]

    public let names: [String]
    let tables: [EntityTable]

    public init(merging names: [String]) throws {
        guard !names.isEmpty else { throw LuaError(.runtime, "a model needs at least one module (\(Self.known))") }
        var tables: [EntityTable] = []
        for name in names {
            guard let module = Self.modules[name] else {
                throw LuaError(.runtime, "no entity model named '\(name)' (\(Self.known))")
            }
            for table in module where !tables.contains(table) { tables.append(table) }
        }
        self.names = names
        self.tables = tables
    }

    static var known: String { "models: " + modules.keys.sorted().joined(separator: ", ") }

    func table(_ name: String) throws -> EntityTable {
        guard let table = tables.first(where: { $0.name == name }) else {
            throw LuaError(.runtime, "no entity '\(name)' in this model (\(names.joined(separator: " + ")): "
                           + "entities \(tables.map(\.name).joined(separator: ", ")))")
        }
        return table
    }

    static var luaClass: LuaClass<ManagedObjectModel> {
        LuaClass<ManagedObjectModel>()
            .constructor { (names: [String]) in try ManagedObjectModel(merging: names) }
            .classFunction("merged") { frame in
                let names = try [String].fromLua(frame.value(1))
                try ManagedObjectModel(merging: names).push(to: frame)
                return 1
            }
            .property("names") { $0.names }
            .property("entities") { $0.tables.map(\.name) }
            .tostring { "ManagedObjectModel(\($0.names.joined(separator: " + ")))" }
    }
}
