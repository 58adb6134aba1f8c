import FactoryRegistry
import LuaBridge

/// What `provider "Type"` makes: a dependency on a factory closure instead
/// of an instance.
final class ProviderMarker: LuaExportable {
    static let luaTypeName = "factoryhost.provider"
    let key: String

    init(key: String) { self.key = key }
}
