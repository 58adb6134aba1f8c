import FactoryScripting

/// Exports the shop's types to scripts: `require "factoryhost.shop"` gives
/// `shop.Order.new(…)` and the others, and their names (`Order`,
/// `PaymentGateway`…) in registrations.
public struct ShopPlugin: FactoryPlugin {
    public let name = "shop"
    public init() {}

    public func install(in context: PluginContext) throws {
        try context.export(Order.luaClass)
        try context.export(OrderStore.luaClass)
        try context.export(CardGateway.luaClass)
        try context.export(CheckoutViewModel.luaClass)
        try context.export(LuaPaymentGateway.interface)
    }
}
