import FactoryScripting
import LuaBridge

/// `require "factoryhost.session"`: UserSession, the AuthRemoteAPI
/// interface, SignInViewModel.
public struct SessionPlugin: FactoryPlugin {
    public let name = "session"
    /// In memory only.
    public var capabilities: PluginCapabilities { [] }
    /// An example's types are the article's, not the user's: a script names
    /// them after `require "factoryhost.session"` (until then `User`, `Cache`… are free).
    public var typeNamesAreGlobal: Bool { false }
    public init() {}

    public func install(in context: PluginContext) throws {
        try context.export(UserSession.luaClass)
        try context.export(LuaInterface.authRemoteAPI)
        try context.export(SignInViewModel.luaClass)
    }
}
