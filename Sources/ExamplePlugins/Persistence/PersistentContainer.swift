import LuaBridge

/// The article's persistent container over a real SQLite store: a merged
/// model, one store description, and the rows scripts insert and fetch.
///
/// ```lua
/// local store = db.PersistentContainer.new {
///   models = { "Users", "Invoices", "Billing" },
///   stores = { db.StoreDescription.sqlite { path = "app.sqlite", migrateAutomatically = true } },
/// }
/// local id = store:insert("users", { name = "ana" })
/// print(store:count "users", store:fetch("users")[1].name)
/// ```
public final class PersistentContainer: LuaExportable, Sendable {
    public static let luaTypeName = "PersistentContainer"
    public let model: ManagedObjectModel
    public let store: StoreDescription
    private let database: SQLiteDatabase

    public init(model: ManagedObjectModel, stores: [StoreDescription]) throws {
        guard stores.count == 1, let store = stores.first else {
            throw LuaError(.runtime, "PersistentContainer: give exactly one store description (got \(stores.count))")
        }
        self.model = model
        self.store = store
        database = try SQLiteDatabase(path: store.path ?? ":memory:", readOnly: store.isReadOnly,
                                      create: store.migratesAutomatically && !store.isReadOnly)
        try loadStore()
    }

    /// Creates missing tables when the store migrates automatically; else
    /// every table of the model must already be there.
    private func loadStore() throws {
        let existing = Set(try database.run("SELECT name FROM sqlite_master WHERE type = 'table'").rows.compactMap { row -> String? in
            if case .text(let name) = row[0] { return name } else { return nil }
        })
        for table in model.tables where !existing.contains(table.name) {
            guard store.migratesAutomatically, !store.isReadOnly else {
                throw LuaError(.runtime, "the store '\(store.path ?? ":memory:")' has no table '\(table.name)' and "
                               + (store.isReadOnly ? "it is read-only" : "migrateAutomatically is off"))
            }
            try database.run(table.createStatement)
        }
    }

    /// Inserts `row` into entity `entity`; returns its id.
    public func insert(_ entity: String, _ row: [String: LuaValue]) throws -> Int {
        let table = try model.table(entity)
        if store.isReadOnly {
            throw LuaError(.runtime, "the store '\(store.path ?? ":memory:")' is read-only: cannot insert into \(entity)")
        }
        var names: [String] = [], values: [SQLValue] = []
        for (column, value) in row.sorted(by: { $0.key < $1.key }) {
            guard table.columns.contains(where: { $0.name == column }) else {
                throw LuaError(.runtime, "entity '\(entity)' has no attribute '\(column)' "
                               + "(attributes: \(table.columns.map(\.name).joined(separator: ", ")))")
            }
            names.append(column)
            values.append(try SQLValue(value, column: column))
        }
        let sql = "INSERT INTO \(entity) (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))"
        return try database.run(names.isEmpty ? "INSERT INTO \(entity) DEFAULT VALUES" : sql, values).lastID
    }

    /// Every row of `entity`, by id, as tables of attribute → value.
    public func fetch(_ entity: String) throws -> [[String: LuaValue]] {
        _ = try model.table(entity)
        let result = try database.run("SELECT * FROM \(entity) ORDER BY id")
        return result.rows.map { row in
            var record: [String: LuaValue] = [:]
            for (column, value) in zip(result.columns, row) where value != .null { record[column] = value.luaValue }
            return record
        }
    }

    /// How many rows `entity` has.
    public func count(_ entity: String) throws -> Int {
        _ = try model.table(entity)
        guard case .integer(let n)? = try database.run("SELECT count(*) FROM \(entity)").rows.first?.first else { return 0 }
        return n
    }

    /// The tables the store really has (what SQLite says, not the model).
    public func storedTables() throws -> [String] {
        try database.run("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").rows.compactMap {
            if case .text(let name) = $0[0] { return name } else { return nil }
        }
    }

    public func close() { database.close() }

    static var luaClass: LuaClass<PersistentContainer> {
        LuaClass<PersistentContainer>()
            .namedConstructor { arguments in
                let model: ManagedObjectModel
                if let given = try arguments.optional("model", as: ManagedObjectModel.self) {
                    model = given
                } else {
                    model = try ManagedObjectModel(merging: arguments.required("models", as: [String].self))
                }
                return try PersistentContainer(model: model, stores: arguments.required("stores", as: [StoreDescription].self))
            }
            .method("insert") { (container, entity: String, row: [String: LuaValue]) in try container.insert(entity, row) }
            .method("fetch") { (container, entity: String) in try container.fetch(entity) }
            .method("count") { (container, entity: String) in try container.count(entity) }
            .method("storedTables") { (container: PersistentContainer) in try container.storedTables() }
            .method("close") { (container: PersistentContainer) in container.close() }
            .property("model") { $0.model }
            .property("store") { $0.store }
            .tostring { "PersistentContainer(\($0.model.names.joined(separator: " + ")); \($0.store.summary))" }
    }
}

/// The article's dependency-injected variant: instead of subclassing a
/// DatabaseFactory to override its model and stores, inject them.
public final class DatabaseFactory: LuaExportable, Sendable {
    public static let luaTypeName = "DatabaseFactory"
    public let model: ManagedObjectModel
    public let stores: [StoreDescription]

    public init(model: ManagedObjectModel, stores: [StoreDescription]) {
        self.model = model
        self.stores = stores
    }

    public func makeContainer() throws -> PersistentContainer {
        try PersistentContainer(model: model, stores: stores)
    }

    static var luaClass: LuaClass<DatabaseFactory> {
        LuaClass<DatabaseFactory>()
            .constructor { (model: ManagedObjectModel, stores: [StoreDescription]) in DatabaseFactory(model: model, stores: stores) }
            .method("makeContainer") { (factory: DatabaseFactory) in try factory.makeContainer() }
            .property("model") { $0.model }
    }
}
