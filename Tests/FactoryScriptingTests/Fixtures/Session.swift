import LuaBridge

// The session fixture's types: a signed-in session, the interface that signs in
// (implemented by Lua tables in the tests), and a view model that uses it.

/// A signed-in user's session (immutable, so `Sendable`).
final class UserSession: LuaExportable, Sendable {
    static let luaTypeName = "UserSession"
    let user: String
    let token: String

    init(user: String, token: String) {
        self.user = user
        self.token = token
    }

    static var luaClass: LuaClass<UserSession> {
        LuaClass<UserSession>()
            .namedConstructor { UserSession(user: try $0.required("user"), token: try $0.optional("token") ?? "") }
            .property("user") { $0.user }
            .property("token") { $0.token }
    }
}

/// Signs users in: an interface that declares only its method names (no signatures), so an
/// assisted factory cannot be generated from it.
protocol AuthRemoteAPI: AnyObject {
    func signIn(user: String, password: String) throws -> UserSession
}

/// A Lua table implementing ``AuthRemoteAPI``: each call's result is checked.
final class LuaAuthRemoteAPI: AuthRemoteAPI, LuaImplemented {
    let implementation: LuaImplementation
    init(_ implementation: LuaImplementation) { self.implementation = implementation }

    func signIn(user: String, password: String) throws -> UserSession {
        try implementation.call("signIn", user, password, returning: UserSession.self)
    }
}

extension LuaInterface where Protocol == any AuthRemoteAPI {
    static let authRemoteAPI = LuaInterface("AuthRemoteAPI", requires: ["signIn"]) { LuaAuthRemoteAPI($0) }
}

/// Signs a user in through an ``AuthRemoteAPI`` and keeps the outcome. Not `Sendable`: its state
/// changes unguarded (a view model belongs to one thread).
final class SignInViewModel: LuaExportable {
    static let luaTypeName = "SignInViewModel"
    let api: any AuthRemoteAPI
    /// `signed out`, `signed in as <user>`, or `failed: <reason>`.
    private(set) var state = "signed out"

    init(api: any AuthRemoteAPI) { self.api = api }

    /// Calls the API; a failure (a wrong result from a Lua fake, say) is kept as the state.
    func signIn(user: String, password: String) -> String {
        do {
            state = "signed in as \(try api.signIn(user: user, password: password).user)"
        } catch {
            state = "failed: " + ((error as? LuaError)?.message ?? String(describing: error))
        }
        return state
    }

    static var luaClass: LuaClass<SignInViewModel> {
        LuaClass<SignInViewModel>()
            // Reads its own argument (an interface, checked with a Lua-style error): a constructor
            // describe knows no argument list of.
            .constructor(frame: { SignInViewModel(api: try LuaInterface.authRemoteAPI.argument($0, 1)) })
            .method("signIn") { (model, user: String, password: String) in model.signIn(user: user, password: password) }
            .property("state") { $0.state }
    }
}
