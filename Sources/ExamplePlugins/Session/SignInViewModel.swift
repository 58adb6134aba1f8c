import LuaBridge

/// Signs a user in through an ``AuthRemoteAPI`` and keeps the outcome.
public final class SignInViewModel: LuaExportable, @unchecked Sendable {
    public static let luaTypeName = "SignInViewModel"
    public let api: any AuthRemoteAPI
    /// `signed out`, `signed in as <user>`, or `failed: <reason>`.
    public private(set) var state = "signed out"
    public private(set) var session: UserSession?

    public init(api: any AuthRemoteAPI) { self.api = api }

    /// Calls the API; a failure (a wrong result from a Lua fake, say) is kept as the state.
    public func signIn(user: String, password: String) -> String {
        do {
            let session = try api.signIn(user: user, password: password)
            self.session = session
            state = "signed in as \(session.user)"
        } catch {
            state = "failed: \(error)"
        }
        return state
    }

    static var luaClass: LuaClass<SignInViewModel> {
        LuaClass<SignInViewModel>()
            .constructor(frame: { SignInViewModel(api: try LuaInterface.authRemoteAPI.argument($0, 1)) })
            .method("signIn") { (model, user: String, password: String) in model.signIn(user: user, password: password) }
            .property("state") { $0.state }
            .property("session") { $0.session }
    }
}
