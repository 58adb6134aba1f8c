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
    /// An example's types are the article's, not the user's: a script names
    /// them after `require "factoryhost.screens"` (until then `User`, `Cache`… are free).
    public var typeNamesAreGlobal: Bool { false }
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
