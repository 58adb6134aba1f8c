import FactoryRegistry
import LuaBridge

/// What `register "Type" { … }` makes: a registration waiting for the
/// `configuration` that holds it. One that never reaches a configuration is
/// reported when the script ends (it would otherwise be lost silently).
final class RegistrationSpec: LuaExportable {
    static let luaTypeName = "factoryhost.registration"
    /// The key, as messages show it (a string, not the `ServiceKey`: a spec
    /// lives as long as its script, and a check may hold 100,000 of them).
    let key: String
    let origin: Origin
    /// The registration until a configuration takes it.
    private var pending: Registration?
    var added: Bool { pending == nil }

    init(_ registration: Registration, key: String) {
        self.key = key
        origin = registration.origin
        pending = registration
    }

    /// The registration, if no one took it yet (left in place).
    func peek() -> Registration? { pending }

    /// The registration, for the configuration that holds it; nil if one
    /// already took it. (Handed over, not copied: the configuration stamps
    /// its name on the one registration.)
    func take() -> Registration? { pending.take() }
}
