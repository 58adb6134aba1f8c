import FactoryRegistry
import FactoryScripting
import LuaBridge

/// `require "factoryhost.networking"`: the movie-loaders article — Cache,
/// HTTPSession, Request, StatefulRequest, DataLoader, MovieLoaderFactory,
/// MovieLoader, the category and recommendations screens — and a
/// LoopbackServer for tests.
public struct NetworkingPlugin: FactoryPlugin {
    public let name = "networking"
    /// HTTP sessions over libcurl, a loopback server.
    public var capabilities: PluginCapabilities { [.network] }
    /// An example's types are the article's, not the user's: a script names
    /// them after `require "factoryhost.networking"` (until then `User`, `Cache`… are free).
    public var typeNamesAreGlobal: Bool { false }
    public init() {}

    public func install(in context: PluginContext) throws {
        try context.export(Cache.luaClass)
        try context.export(HTTPSession.luaClass)
        try context.export(MovieLoader.luaClass)
        try context.export(Request.luaClass)
        try context.export(StatefulRequest.luaClass)
        try context.export(DataLoader.luaClass)
        try context.export(MovieLoaderFactory.luaClass)
        try context.export(CategoryViewController.luaClass)
        try context.export(RecommendationsViewController.luaClass)
        try context.export(LoopbackServer.luaClass)
    }
}
