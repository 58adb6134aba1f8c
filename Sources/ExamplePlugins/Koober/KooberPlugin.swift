import FactoryScripting
import LuaBridge

/// `require "factoryhost.koober"`: the Koober notes' object graph —
/// UserSessionPropertyListCoder, Keychain, UserSessionStore (file, or secure with a
/// coder), UserSessionRepository, the view models (Main, Launch, Onboarding,
/// Welcome, SignUp, Profile) and the headless view controllers (Main, Launch,
/// Onboarding with its Welcome, SignIn and SignUp children, SignedIn).
/// (UserSession, AuthRemoteAPI and SignInViewModel are in `factoryhost.session`.)
public struct KooberPlugin: FactoryPlugin {
    public let name = "koober"
    /// Its file session store reads, writes and deletes files.
    public var capabilities: PluginCapabilities { [.files] }
    /// An example's types are the article's, not the user's: a script names
    /// them after `require "factoryhost.koober"` (until then `User`, `Cache`… are free).
    public var typeNamesAreGlobal: Bool { false }
    public init() {}

    public func install(in context: PluginContext) throws {
        try context.export(UserSessionPropertyListCoder.luaClass)
        try context.export(Keychain.luaClass)
        try context.export(UserSessionStore.luaClass)
        try context.export(UserSessionRepository.luaClass)
        try context.export(MainViewModel.luaClass)
        try context.export(LaunchViewModel.luaClass)
        try context.export(OnboardingViewModel.luaClass)
        try context.export(WelcomeViewModel.luaClass)
        try context.export(SignUpViewModel.luaClass)
        try context.export(ProfileViewModel.luaClass)
        try context.export(LaunchViewController.luaClass)
        try context.export(WelcomeViewController.luaClass)
        try context.export(SignInViewController.luaClass)
        try context.export(SignUpViewController.luaClass)
        try context.export(OnboardingViewController.luaClass)
        try context.export(SignedInViewController.luaClass)
        try context.export(MainViewController.luaClass)
    }
}
