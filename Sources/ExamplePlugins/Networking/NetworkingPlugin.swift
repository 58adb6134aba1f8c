import FactoryRegistry
import FactoryScripting
import LuaBridge

/// `require "factoryhost.networking"`: Cache, HTTPSession, MovieLoader.
public struct NetworkingPlugin: FactoryPlugin {
    public let name = "networking"
    public init() {}

    public func install(in context: PluginContext) throws {
        try context.export(Cache.luaClass)
        try context.export(HTTPSession.luaClass)
        try context.export(MovieLoader.luaClass)
    }
}
