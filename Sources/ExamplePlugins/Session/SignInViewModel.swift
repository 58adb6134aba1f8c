import LuaBridge

/// Signs a user in through an ``AuthRemoteAPI`` and keeps the outcome.
///
/// Not `Sendable`: a view model belongs to the thread that drives the UI (the host's), as a view controller's does.
public final class SignInViewModel: LuaExportable {
    public static let luaTypeName = "SignInViewModel"
    public let api: any AuthRemoteAPI
    /// `signed out`, `signed in as <user>`, or `failed: <reason>`.
    public private(set) var state = "signed out"
    public private(set) var session: UserSession?

    /// In the Koober graph: sign-ins go through the repository (which saves
    /// the session) and tell the main view model.
    var repository: UserSessionRepository?
    var main: MainViewModel?

    public init(api: any AuthRemoteAPI) { self.api = api }

    public init(repository: UserSessionRepository, main: MainViewModel) {
        self.api = repository.api
        self.repository = repository
        self.main = main
    }

    /// Calls the API; a failure (a wrong result from a Lua fake, say) is kept as the state.
    public func signIn(user: String, password: String) -> String {
        do {
            let session = try repository?.signIn(user: user, password: password) ?? api.signIn(user: user, password: password)
            self.session = session
            main?.signedIn(session)
            state = "signed in as \(session.user)"
        } catch {
            state = "failed: " + ((error as? LuaError)?.message ?? String(describing: error))
        }
        return state
    }

    static var luaClass: LuaClass<SignInViewModel> {
        LuaClass<SignInViewModel>()
            .constructor(frame: { frame in
                if let repository = try? frame.object(1, as: UserSessionRepository.self, typeName: UserSessionRepository.luaTypeName) {
                    return SignInViewModel(repository: repository, main: try MainViewModel.fromLua(frame.value(2)))
                }
                return SignInViewModel(api: try LuaInterface.authRemoteAPI.argument(frame, 1))
            })
            .method("signIn") { (model, user: String, password: String) in model.signIn(user: user, password: password) }
            .property("state") { $0.state }
            .property("session") { $0.session }
    }
}
