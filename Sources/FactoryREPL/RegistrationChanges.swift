import FactoryRegistry
import FactoryScripting
import FactoryhostSupport
import LuaBridge
import LuaInterpreter

/// What `:reload` changed: registrations added, removed, changed (by
/// `configuration: key`).
public struct RegistrationChanges: Equatable {
    public var added: [String] = []
    public var removed: [String] = []
    public var changed: [String] = []

    init(before: [String: String], after: [String: String]) {
        added = after.keys.filter { before[$0] == nil }.sorted()
        removed = before.keys.filter { after[$0] == nil }.sorted()
        changed = after.keys.filter { before[$0] != nil && before[$0] != after[$0] }.sorted()
    }
}
