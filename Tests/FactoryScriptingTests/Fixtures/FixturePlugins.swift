import FactoryScripting
import LuaBridge

// The core's own plugins: what the scripting tests need of a Swift plugin, so that
// changing an example (Sources/ExamplePlugins) never changes what these tests mean.
// They keep the examples' Lua-visible names (the modules factoryhost.networking,
// factoryhost.session and factoryhost.screens, the types Cache, MovieLoader,
// AuthRemoteAPI, PizzaFactory, …) because the tests' scripts and expected messages
// use them; each type offers only what some test uses. Nothing here reaches
// outside the process.

/// The fixture plugins, in the order the tests install them.
enum FixturePlugins {
    static var all: [any FactoryPlugin] { [NetworkingFixturePlugin(), SessionFixturePlugin(), ScreensFixturePlugin()] }
}

/// `require "factoryhost.networking"`: Cache, HTTPSession, MovieLoader.
struct NetworkingFixturePlugin: FactoryPlugin {
    let name = "networking"
    /// Claimed as the networking example claims it, though the fixture reaches nothing: a plugin that
    /// says it reaches the network is the one check's dry run stops (ClassShapeTests), and a sandbox refuses.
    var capabilities: PluginCapabilities { [.network] }

    func install(in context: PluginContext) throws {
        try context.export(Cache.luaClass)
        try context.export(HTTPSession.luaClass)
        try context.export(MovieLoader.luaClass)
    }
}

/// `require "factoryhost.session"`: UserSession, the AuthRemoteAPI interface (methods without
/// signatures), SignInViewModel.
struct SessionFixturePlugin: FactoryPlugin {
    let name = "session"
    /// In memory only.
    var capabilities: PluginCapabilities { [] }

    func install(in context: PluginContext) throws {
        try context.export(UserSession.luaClass)
        try context.export(LuaInterface.authRemoteAPI)
        try context.export(SignInViewModel.luaClass)
    }
}

/// `require "factoryhost.screens"`: CreditService, Pizza, the PizzaFactory interface (with
/// signatures and a property: assisted factories are generated from it), PizzaShop.
struct ScreensFixturePlugin: FactoryPlugin {
    let name = "screens"
    /// In memory only.
    var capabilities: PluginCapabilities { [] }

    func install(in context: PluginContext) throws {
        try context.export(CreditService.luaClass)
        try context.export(Pizza.luaClass)
        try context.export(LuaInterface.pizzaFactory)
        try context.export(PizzaShop.luaClass)
    }
}
