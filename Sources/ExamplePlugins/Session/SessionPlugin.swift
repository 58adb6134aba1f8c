import FactoryScripting
import LuaBridge

/// `require "factoryhost.session"`: UserSession, the AuthRemoteAPI
/// interface, SignInViewModel.
public struct SessionPlugin: FactoryPlugin {
    public let name = "session"
    /// In memory only.
    public var capabilities: PluginCapabilities { [] }
    public init() {}

    public func install(in context: PluginContext) throws {
        try context.export(UserSession.luaClass)
        try context.export(LuaInterface.authRemoteAPI)
        try context.export(SignInViewModel.luaClass)
    }
}
