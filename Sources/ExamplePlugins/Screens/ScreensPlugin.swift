import FactoryScripting
import LuaBridge

/// `require "factoryhost.screens"`: the assisted-factory article's types —
/// User, UsersService, PhotoService, ParentViewController,
/// ChildViewController, the ChildViewControllerFactory interface,
/// CreditService, Pizza, the PizzaFactory interface, PizzaShop.
public struct ScreensPlugin: FactoryPlugin {
    public let name = "screens"
    /// In memory only.
    public var capabilities: PluginCapabilities { [] }
    public init() {}

    public func install(in context: PluginContext) throws {
        try context.export(User.luaClass)
        try context.export(UsersService.luaClass)
        try context.export(PhotoService.luaClass)
        try context.export(ChildViewController.luaClass)
        try context.export(LuaInterface.childViewControllerFactory)
        try context.export(ParentViewController.luaClass)
        try context.export(CreditService.luaClass)
        try context.export(Pizza.luaClass)
        try context.export(LuaInterface.pizzaFactory)
        try context.export(PizzaShop.luaClass)
    }
}
