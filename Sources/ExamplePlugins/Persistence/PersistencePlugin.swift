import FactoryScripting
import LuaBridge

/// `require "factoryhost.persistence"`: the Factory Method article's
/// persistent container over SQLite — ManagedObjectModel (Users, Invoices,
/// Billing), StoreDescription (SQLite file or in-memory, read-only,
/// migrate automatically), PersistentContainer, DatabaseFactory.
public struct PersistencePlugin: FactoryPlugin {
    public let name = "persistence"
    /// SQLite stores in files.
    public var capabilities: PluginCapabilities { [.files] }
    /// An example's types are the article's, not the user's: a script names
    /// them after `require "factoryhost.persistence"` (until then `User`, `Cache`… are free).
    public var typeNamesAreGlobal: Bool { false }
    public init() {}

    public func install(in context: PluginContext) throws {
        try context.export(ManagedObjectModel.luaClass)
        try context.export(StoreDescription.luaClass)
        try context.export(PersistentContainer.luaClass)
        try context.export(DatabaseFactory.luaClass)
    }
}
