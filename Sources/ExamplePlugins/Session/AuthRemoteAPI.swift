import LuaBridge

/// The remote API that signs users in (the Koober article's), implemented
/// in Swift for the app and by a Lua table in tests. The repository that
/// holds it is a singleton, which any thread may use: an implementation is
/// `Sendable` — a Swift one thread-safe, as the compiler checks; a Lua one
/// refuses calls off its state's thread.
public protocol AuthRemoteAPI: AnyObject, Sendable {
    func signIn(user: String, password: String) throws -> UserSession
}

/// A Lua table implementing ``AuthRemoteAPI``: each call's result is checked.
final class LuaAuthRemoteAPI: AuthRemoteAPI, LuaImplemented, Sendable {
    let implementation: LuaImplementation
    init(_ implementation: LuaImplementation) { self.implementation = implementation }

    func signIn(user: String, password: String) throws -> UserSession {
        try implementation.call("signIn", user, password, returning: UserSession.self)
    }
}

extension LuaInterface where Protocol == any AuthRemoteAPI {
    static let authRemoteAPI = LuaInterface("AuthRemoteAPI", requires: ["signIn"]) { LuaAuthRemoteAPI($0) }
}
