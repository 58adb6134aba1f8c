import FactoryhostSupport
import LuaBridge

/// An in-memory stand-in for the system keychain (Linux has none): items of
/// data (a session as its coder wrote it) by service name, never on disk. It holds no process-wide state — each
/// keychain is its own, so a configuration registers one as a singleton and
/// every container (every test) starts with an empty one.
///
/// ```lua
/// register "Keychain" { scope = "singleton", make = function() return koober.Keychain.new() end }
/// register "UserSessionStore" { deps = { keychain = "Keychain", coder = "UserSessionPropertyListCoder" },
///   make = function(d) return koober.UserSessionStore.secure { service = "com.koober.session", keychain = d.keychain, coder = d.coder } end }
/// ```
// Sendable, checked: its items live behind a lock (`Protected`) — a singleton: every thread shares it.
public final class Keychain: LuaExportable, Sendable {
    public static let luaTypeName = "Keychain"
    private let items = Protected<[String: String]>([:])

    public init() {}

    /// The data kept for `service`, if any.
    public func item(_ service: String) -> String? { items.withLock { $0[service] } }
    func read(_ service: String) -> String? { item(service) }
    func save(_ data: String, for service: String) { items.withLock { $0[service] = data } }
    func delete(_ service: String) { _ = items.withLock { $0.removeValue(forKey: service) } }

    /// The services holding a session, sorted.
    public var services: [String] { items.withLock { $0.keys.sorted() } }

    static var luaClass: LuaClass<Keychain> {
        LuaClass<Keychain>()
            .constructor { Keychain() }
            .property("services") { $0.services }
            .method("item") { (keychain, service: String) in keychain.item(service) }
            .tostring { "Keychain(\($0.services.count) item\($0.services.count == 1 ? "" : "s"))" }
    }
}
