import LuaBridge

/// An in-memory stand-in for the system keychain (Linux has none): sessions
/// by service name, never on disk. It holds no process-wide state — each
/// keychain is its own, so a configuration registers one as a singleton and
/// every container (every test) starts with an empty one.
///
/// ```lua
/// register "Keychain" { scope = "singleton", make = function() return koober.Keychain.new() end }
/// register "UserSessionStore" { deps = { keychain = "Keychain" },
///   make = function(d) return koober.UserSessionStore.secure { service = "com.koober.session", keychain = d.keychain } end }
/// ```
public final class Keychain: LuaExportable, @unchecked Sendable {
    public static let luaTypeName = "Keychain"
    private var items: [String: UserSession] = [:]
    private let lock = Mutex()

    public init() {}

    func read(_ service: String) -> UserSession? { lock.locked { items[service] } }
    func save(_ session: UserSession, for service: String) { lock.locked { items[service] = session } }
    func delete(_ service: String) { _ = lock.locked { items.removeValue(forKey: service) } }

    /// The services holding a session, sorted.
    public var services: [String] { lock.locked { items.keys.sorted() } }

    static var luaClass: LuaClass<Keychain> {
        LuaClass<Keychain>()
            .constructor { Keychain() }
            .property("services") { $0.services }
            .tostring { "Keychain(\($0.services.count) item\($0.services.count == 1 ? "" : "s"))" }
    }
}
