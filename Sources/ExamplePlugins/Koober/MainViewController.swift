import LuaBridge

/// The main screen without UIKit: it watches the MainViewModel and, when the
/// view changes, makes the child screen with the *factory closures* it was
/// given — `makeOnboarding()` and `makeSignedIn { session = … }` — as in
/// Koober's `MainViewController`.
public final class MainViewController: LuaExportable, @unchecked Sendable {
    public static let luaTypeName = "MainViewController"
    public let model: MainViewModel
    private let makeOnboarding: LuaFunction
    private let makeSignedIn: LuaFunction
    /// The child screen shown now (whatever the factory made), and how many were made.
    public private(set) var child: LuaValue = .nil
    public private(set) var shownView = ""
    public private(set) var childrenMade = 0

    init(model: MainViewModel, makeOnboarding: LuaFunction, makeSignedIn: LuaFunction) {
        self.model = model
        self.makeOnboarding = makeOnboarding
        self.makeSignedIn = makeSignedIn
    }

    /// Shows the screen the model asks for, making a child only when the view changed.
    public func update() throws -> LuaValue {
        guard model.view != shownView else { return child }
        shownView = model.view
        if let session = model.session {
            guard let state = makeSignedIn.state else { throw LuaError(.closed, "the Lua state is closed") }
            let arguments = try state.newTable(hashCapacity: 1)
            try arguments.rawSet("session", .userdata(state.pushObject(session, type: UserSession.luaTypeName)))
            child = try makeSignedIn.call(.table(arguments)).first ?? .nil
        } else if model.view == "onboarding" {
            child = try makeOnboarding.call().first ?? .nil
        } else {
            child = .nil
        }
        if !child.isNil { childrenMade += 1 }
        return child
    }

    static var luaClass: LuaClass<MainViewController> {
        LuaClass<MainViewController>()
            .constructor(frame: { frame in
                guard case .function(let onboarding) = frame.value(2) else {
                    throw frame.typeError(2, expected: "function (a provider \"OnboardingViewModel\")")
                }
                guard case .function(let signedIn) = frame.value(3) else {
                    throw frame.typeError(3, expected: "function (a provider \"ProfileViewModel#screen\")")
                }
                return MainViewController(model: try MainViewModel.fromLua(frame.value(1)), makeOnboarding: onboarding, makeSignedIn: signedIn)
            })
            .method("update") { (controller: MainViewController) in try controller.update() }
            .property("child") { $0.child }
            .property("model") { $0.model }
            .property("childrenMade") { $0.childrenMade }
    }
}
