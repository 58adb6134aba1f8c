import LuaBridge

// Koober's screens without UIKit: each view controller holds its view model,
// as the article's do, and what a user would tap is a method. None claims
// `Sendable`: like a UIKit controller, each belongs to the thread that shows it.

/// Shown while the app launches; appearing, it asks its ``LaunchViewModel``
/// to decide between onboarding and the signed-in screen.
///
/// ```lua
/// main.launchViewController:appear()    -- reads the stored session
/// ```
public final class LaunchViewController: LuaExportable {
    public static let luaTypeName = "LaunchViewController"
    public let viewModel: LaunchViewModel
    public init(viewModel: LaunchViewModel) { self.viewModel = viewModel }

    /// `viewDidAppear`: starts the launch view model.
    public func appear() throws { try viewModel.start() }

    static var luaClass: LuaClass<LaunchViewController> {
        LuaClass<LaunchViewController>()
            .constructor { (model: LaunchViewModel) in LaunchViewController(viewModel: model) }
            .method("appear") { (controller: LaunchViewController) in try controller.appear() }
            .property("viewModel") { $0.viewModel }
            .tostring { _ in "LaunchViewController" }
    }
}

/// The welcome screen: its two buttons move the onboarding flow on.
public final class WelcomeViewController: LuaExportable {
    public static let luaTypeName = "WelcomeViewController"
    public let viewModel: WelcomeViewModel
    public init(viewModel: WelcomeViewModel) { self.viewModel = viewModel }

    static var luaClass: LuaClass<WelcomeViewController> {
        LuaClass<WelcomeViewController>()
            .constructor { (model: WelcomeViewModel) in WelcomeViewController(viewModel: model) }
            .method("tapSignIn") { (controller: WelcomeViewController) in controller.viewModel.showSignIn() }
            .method("tapSignUp") { (controller: WelcomeViewController) in controller.viewModel.showSignUp() }
            .property("viewModel") { $0.viewModel }
            .tostring { _ in "WelcomeViewController" }
    }
}

/// The sign-in form.
public final class SignInViewController: LuaExportable {
    public static let luaTypeName = "SignInViewController"
    public let viewModel: SignInViewModel
    public init(viewModel: SignInViewModel) { self.viewModel = viewModel }

    static var luaClass: LuaClass<SignInViewController> {
        LuaClass<SignInViewController>()
            .constructor { (model: SignInViewModel) in SignInViewController(viewModel: model) }
            .method("signIn") { (controller, user: String, password: String) in controller.viewModel.signIn(user: user, password: password) }
            .property("viewModel") { $0.viewModel }
            .tostring { "SignInViewController(\($0.viewModel.state))" }
    }
}

/// The sign-up form.
public final class SignUpViewController: LuaExportable {
    public static let luaTypeName = "SignUpViewController"
    public let viewModel: SignUpViewModel
    public init(viewModel: SignUpViewModel) { self.viewModel = viewModel }

    static var luaClass: LuaClass<SignUpViewController> {
        LuaClass<SignUpViewController>()
            .constructor { (model: SignUpViewModel) in SignUpViewController(viewModel: model) }
            .method("signUp") { (controller, user: String, password: String) in controller.viewModel.signUp(user: user, password: password) }
            .property("viewModel") { $0.viewModel }
            .tostring { "SignUpViewController(\($0.viewModel.state))" }
    }
}

/// Koober's `OnboardingViewController`: composed of the Welcome, SignIn and
/// SignUp controllers it is given, it shows the one its
/// ``OnboardingViewModel`` names.
///
/// ```lua
/// local onboarding = koober.OnboardingViewController.new(model, welcome, signIn, signUp)
/// onboarding.welcome:tapSignIn()
/// assert(onboarding.shown == onboarding.signIn)
/// ```
public final class OnboardingViewController: LuaExportable {
    public static let luaTypeName = "OnboardingViewController"
    public let viewModel: OnboardingViewModel
    public let welcome: WelcomeViewController
    public let signIn: SignInViewController
    public let signUp: SignUpViewController

    /// Refuses a welcome screen that moves another onboarding flow than this one.
    public init(viewModel: OnboardingViewModel, welcome: WelcomeViewController,
                signIn: SignInViewController, signUp: SignUpViewController) throws {
        guard welcome.viewModel.onboarding === viewModel else {
            throw LuaError(.typeMismatch, "the welcome screen given to an OnboardingViewController moves another "
                           + "OnboardingViewModel than the one it was given: make it with the same one")
        }
        self.viewModel = viewModel
        self.welcome = welcome
        self.signIn = signIn
        self.signUp = signUp
    }

    /// The child controller on screen now.
    public var shown: any LuaExportable {
        switch viewModel.view {
        case "sign in": return signIn
        case "sign up": return signUp
        default: return welcome
        }
    }

    static var luaClass: LuaClass<OnboardingViewController> {
        LuaClass<OnboardingViewController>()
            .constructor(frame: { frame in
                try OnboardingViewController(
                    viewModel: frame.object(1, as: OnboardingViewModel.self, typeName: OnboardingViewModel.luaTypeName),
                    welcome: frame.object(2, as: WelcomeViewController.self, typeName: WelcomeViewController.luaTypeName),
                    signIn: frame.object(3, as: SignInViewController.self, typeName: SignInViewController.luaTypeName),
                    signUp: frame.object(4, as: SignUpViewController.self, typeName: SignUpViewController.luaTypeName))
            })
            .property("viewModel") { $0.viewModel }
            .property("welcome") { $0.welcome }
            .property("signIn") { $0.signIn }
            .property("signUp") { $0.signUp }
            .property("shown") { Screen($0.shown) }
            .tostring { "OnboardingViewController(\($0.viewModel.view))" }
    }
}

/// A screen of whichever exported type, as one result.
struct Screen: LuaResult {
    let controller: any LuaExportable
    init(_ controller: any LuaExportable) { self.controller = controller }
    func push(to frame: LuaFrame) throws { try controller.push(to: frame) }
}

/// What a signed-in user sees, made for one ``UserSession`` (the article's
/// `(UserSession) -> SignedInViewController`); signing out deletes the
/// stored session and tells the main view model.
public final class SignedInViewController: LuaExportable {
    public static let luaTypeName = "SignedInViewController"
    public let profile: ProfileViewModel
    let repository: UserSessionRepository
    let responder: MainViewModel

    public init(profile: ProfileViewModel, repository: UserSessionRepository, responder: MainViewModel) {
        self.profile = profile
        self.repository = repository
        self.responder = responder
    }

    /// The sign-out button.
    public func signOut() throws {
        try repository.signOut()
        responder.signedOut()
    }

    static var luaClass: LuaClass<SignedInViewController> {
        LuaClass<SignedInViewController>()
            .constructor { (profile: ProfileViewModel, repository: UserSessionRepository, responder: MainViewModel) in
                SignedInViewController(profile: profile, repository: repository, responder: responder)
            }
            .method("signOut") { (controller: SignedInViewController) in try controller.signOut() }
            .property("profile") { $0.profile }
            .property("user") { $0.profile.session.user }
            .tostring { "SignedInViewController(\($0.profile.session.user))" }
    }
}
