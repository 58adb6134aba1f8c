import FactoryRegistry
import LuaBridge

/// The app-wide view model (long-lived: one per container): which top-level
/// screen shows — `launching`, `onboarding`, or `signed in as <user>`.
///
/// Not `Sendable`: a view model belongs to the thread that drives the UI (the host's), as a view controller's does.
public final class MainViewModel: LuaExportable {
    public static let luaTypeName = "MainViewModel"
    public private(set) var view = "launching"
    public private(set) var session: UserSession?
    /// Every view it has shown, in order.
    public private(set) var history: [String] = ["launching"]

    public init() {}

    func show(_ view: String) {
        self.view = view
        history.append(view)
    }

    public func notSignedIn() { session = nil; show("onboarding") }
    public func signedIn(_ session: UserSession) { self.session = session; show("signed in as \(session.user)") }
    public func signedOut() { session = nil; show("onboarding") }

    static var luaClass: LuaClass<MainViewModel> {
        LuaClass<MainViewModel>()
            .constructor { MainViewModel() }
            .method("notSignedIn") { (model: MainViewModel) in model.notSignedIn() }
            .method("signedIn") { (model, session: UserSession) in model.signedIn(session) }
            .method("signedOut") { (model: MainViewModel) in model.signedOut() }
            .property("view") { $0.view }
            .property("session") { $0.session }
            .property("history") { $0.history }
    }
}

/// Decides, at launch, between onboarding and the signed-in screen.
///
/// Not `Sendable`: a view model belongs to the thread that drives the UI (the host's), as a view controller's does.
public final class LaunchViewModel: LuaExportable {
    public static let luaTypeName = "LaunchViewModel"
    let repository: UserSessionRepository
    let main: MainViewModel
    public init(repository: UserSessionRepository, main: MainViewModel) {
        self.repository = repository
        self.main = main
    }

    public func start() throws {
        if let session = try repository.readSession() { main.signedIn(session) } else { main.notSignedIn() }
    }

    static var luaClass: LuaClass<LaunchViewModel> {
        LuaClass<LaunchViewModel>()
            .constructor { (repository: UserSessionRepository, main: MainViewModel) in LaunchViewModel(repository: repository, main: main) }
            .method("start") { (model: LaunchViewModel) in try model.start() }
    }
}

/// Which onboarding screen shows: `welcome`, `sign in` or `sign up`.
///
/// Not `Sendable`: a view model belongs to the thread that drives the UI (the host's), as a view controller's does.
public final class OnboardingViewModel: LuaExportable {
    public static let luaTypeName = "OnboardingViewModel"
    public internal(set) var view = "welcome"
    public init() {}

    static var luaClass: LuaClass<OnboardingViewModel> {
        LuaClass<OnboardingViewModel>()
            .constructor { OnboardingViewModel() }
            .method("navigateToSignIn") { (model: OnboardingViewModel) in model.view = "sign in" }
            .method("navigateToSignUp") { (model: OnboardingViewModel) in model.view = "sign up" }
            .method("navigateBack") { (model: OnboardingViewModel) in model.view = "welcome" }
            .property("view") { $0.view }
            .tostring { "OnboardingViewModel(\($0.view))" }
    }
}

/// The welcome screen's two buttons.
///
/// Not `Sendable`: a view model belongs to the thread that drives the UI (the host's), as a view controller's does.
public final class WelcomeViewModel: LuaExportable {
    public static let luaTypeName = "WelcomeViewModel"
    let onboarding: OnboardingViewModel
    public init(onboarding: OnboardingViewModel) { self.onboarding = onboarding }

    public func showSignIn() { onboarding.view = "sign in" }
    public func showSignUp() { onboarding.view = "sign up" }

    static var luaClass: LuaClass<WelcomeViewModel> {
        LuaClass<WelcomeViewModel>()
            .constructor { (onboarding: OnboardingViewModel) in WelcomeViewModel(onboarding: onboarding) }
            .method("showSignIn") { (model: WelcomeViewModel) in model.showSignIn() }
            .method("showSignUp") { (model: WelcomeViewModel) in model.showSignUp() }
    }
}

/// Signs a new user up: checks the form, then signs in through the repository.
///
/// Not `Sendable`: a view model belongs to the thread that drives the UI (the host's), as a view controller's does.
public final class SignUpViewModel: LuaExportable {
    public static let luaTypeName = "SignUpViewModel"
    let repository: UserSessionRepository
    let main: MainViewModel
    public private(set) var state = "editing"
    public init(repository: UserSessionRepository, main: MainViewModel) {
        self.repository = repository
        self.main = main
    }

    public func signUp(user: String, password: String) -> String {
        if user.isEmpty { state = "invalid: a user name is required" }
        else if password.count < 8 { state = "invalid: the password needs 8 characters or more" }
        else {
            do {
                main.signedIn(try repository.signIn(user: user, password: password))
                state = "signed up as \(user)"
            } catch {
                state = "failed: \(error)"
            }
        }
        return state
    }

    static var luaClass: LuaClass<SignUpViewModel> {
        LuaClass<SignUpViewModel>()
            .constructor { (repository: UserSessionRepository, main: MainViewModel) in SignUpViewModel(repository: repository, main: main) }
            .method("signUp") { (model, user: String, password: String) in model.signUp(user: user, password: password) }
            .property("state") { $0.state }
    }
}

/// What a signed-in user sees; it lives in the `session` scope, from sign-in
/// to sign-out, and knows when that scope has closed.
///
/// Not `Sendable`: a view model belongs to the thread that drives the UI (the host's), as a view controller's does.
public final class ProfileViewModel: LuaExportable, ScopeBound {
    public static let luaTypeName = "ProfileViewModel"
    public let session: UserSession
    public private(set) var isActive = true
    public init(session: UserSession) { self.session = session }
    public func scopeDidClose() { isActive = false }

    static var luaClass: LuaClass<ProfileViewModel> {
        LuaClass<ProfileViewModel>()
            .constructor { (session: UserSession) in ProfileViewModel(session: session) }
            .property("user") { $0.session.user }
            .property("isActive") { $0.isActive }
            .tostring { "ProfileViewModel(\($0.session.user)\($0.isActive ? "" : ", ended"))" }
    }
}
