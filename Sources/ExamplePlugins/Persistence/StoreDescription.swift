import LuaBridge

/// Where a container keeps its data, as `NSPersistentStoreDescription` says it.
///
/// ```lua
/// db.StoreDescription.sqlite { path = "app.sqlite", migrateAutomatically = true }
/// db.StoreDescription.sqlite { path = "app.sqlite", readOnly = true }
/// db.StoreDescription.inMemory()
/// ```
public final class StoreDescription: LuaExportable, Sendable {
    public static let luaTypeName = "StoreDescription"
    /// The SQLite file, or `nil` for an in-memory store.
    public let path: String?
    public let isReadOnly: Bool
    public let migratesAutomatically: Bool

    public init(path: String?, readOnly: Bool = false, migrateAutomatically: Bool = true) {
        self.path = path
        self.isReadOnly = readOnly
        self.migratesAutomatically = migrateAutomatically
    }

    public var summary: String {
        (path.map { "sqlite \($0)" } ?? "in-memory") + (isReadOnly ? ", read-only" : "")
    }

    static var luaClass: LuaClass<StoreDescription> {
        LuaClass<StoreDescription>()
            .classFunction("sqlite") { frame in
                guard case .table(let options) = frame.value(1) else {
                    throw frame.typeError(1, expected: "table { path = …, readOnly = …, migrateAutomatically = … }")
                }
                for (key, _) in try options.pairs() {
                    guard case .string(let name) = key, ["path", "readOnly", "migrateAutomatically"].contains(name.description) else {
                        throw LuaError(.typeMismatch, "StoreDescription.sqlite has no option \(key) (options: path, readOnly, migrateAutomatically)")
                    }
                }
                guard case .string(let path) = try options.rawGet("path"), !path.description.isEmpty else {
                    throw LuaError(.typeMismatch, "StoreDescription.sqlite needs a path (a non-empty string)")
                }
                let readOnly = try Bool?.fromLua(options.rawGet("readOnly")) ?? false
                let migrate = try Bool?.fromLua(options.rawGet("migrateAutomatically")) ?? false
                try StoreDescription(path: path.description, readOnly: readOnly, migrateAutomatically: migrate).push(to: frame)
                return 1
            }
            .classFunction("inMemory") { frame in
                try StoreDescription(path: nil).push(to: frame)
                return 1
            }
            .property("path") { $0.path }
            .property("isReadOnly") { $0.isReadOnly }
            .property("migratesAutomatically") { $0.migratesAutomatically }
            .tostring { "StoreDescription(\($0.summary))" }
    }
}
