import LuaBridge

/// Koober's `MainViewController` without UIKit. It is given the launch screen
/// and two *factory closures* — `() -> OnboardingViewController` and
/// `(UserSession) -> SignedInViewController` — because it must make child
/// screens after it was made: each time the ``MainViewModel`` moves to
/// onboarding it makes a new onboarding screen, and each sign-in a new
/// signed-in screen for that session. Swift checks what each closure makes:
/// one that makes anything else is an error naming it, not a screen of the
/// wrong type.
///
/// ```lua
/// local main = koober.MainViewController.new(model, launch, provider_of_onboarding, provider_of_signed_in)
/// main.launchViewController:appear()
/// local onboarding = main:update()      -- an OnboardingViewController
/// ```
///
/// Not `Sendable`: it calls its closures into the Lua state that made them.
public final class MainViewController: LuaExportable {
    public static let luaTypeName = "MainViewController"
    public let viewModel: MainViewModel
    public let launchViewController: LaunchViewController
    private let makeOnboarding: LuaFactoryClosure<OnboardingViewController>
    private let makeSignedIn: LuaFactoryClosure<SignedInViewController>
    /// The child screen shown now, and how many the closures made.
    public private(set) var child: (any LuaExportable)?
    public private(set) var shownView = ""
    public private(set) var childrenMade = 0

    init(viewModel: MainViewModel, launchViewController: LaunchViewController,
         makeOnboarding: LuaFactoryClosure<OnboardingViewController>,
         makeSignedIn: LuaFactoryClosure<SignedInViewController>) {
        self.viewModel = viewModel
        self.launchViewController = launchViewController
        self.makeOnboarding = makeOnboarding
        self.makeSignedIn = makeSignedIn
    }

    private var updating = false

    /// Presents the screen the view model asks for (the article's
    /// `present(_ view: MainView)`), making a child only when the view
    /// changed. A factory closure makes a screen; one that calls `update()`
    /// again is refused. If the view moved on while a closure ran, the next
    /// `update()` presents where it went.
    public func update() throws -> (any LuaExportable)? {
        guard !updating else {
            throw LuaError(.runtime, "MainViewController: update() was called again while a factory closure was making "
                           + "a screen (a factory closure makes a screen; it does not present one)")
        }
        let view = viewModel.view
        guard view != shownView else { return child }
        updating = true
        defer { updating = false }
        let made: any LuaExportable
        if let session = viewModel.session {
            made = try makeSignedIn(["session": .userdata(sessionValue(session))])
            childrenMade += 1
        } else if view == "onboarding" {
            made = try makeOnboarding()
            childrenMade += 1
        } else {
            made = launchViewController
        }
        child = made
        shownView = view
        return made
    }

    private func sessionValue(_ session: UserSession) throws -> LuaUserdata {
        guard let state = makeSignedIn.function.state else { throw LuaError(.closed, "the Lua state is closed") }
        return try state.pushObject(session, type: UserSession.luaTypeName)
    }

    static var luaClass: LuaClass<MainViewController> {
        LuaClass<MainViewController>()
            .constructor(frame: { frame in
                MainViewController(
                    viewModel: try frame.object(1, as: MainViewModel.self, typeName: MainViewModel.luaTypeName),
                    launchViewController: try frame.object(2, as: LaunchViewController.self, typeName: LaunchViewController.luaTypeName),
                    makeOnboarding: try LuaFactoryClosure(frame, 3, name: "makeOnboarding"),
                    makeSignedIn: try LuaFactoryClosure(frame, 4, name: "makeSignedIn"))
            })
            .method("update") { (controller: MainViewController) in try controller.update().map(Screen.init) }
            .property("child") { $0.child.map(Screen.init) }
            .property("viewModel") { $0.viewModel }
            .property("model") { $0.viewModel }
            .property("launchViewController") { $0.launchViewController }
            .property("childrenMade") { $0.childrenMade }
    }
}
