import FactoryScripting
import LuaBridge

/// `require "factoryhost.vehicles"`: the generic-factories article's types —
/// Color, Pickup, Convertible, the VehicleFactory interface, Garage, VehicleController.
public struct VehiclesPlugin: FactoryPlugin {
    public let name = "vehicles"
    /// In memory only.
    public var capabilities: PluginCapabilities { [] }
    public init() {}

    public func install(in context: PluginContext) throws {
        try context.export(Color.luaClass)
        try context.export(Pickup.luaClass)
        try context.export(Convertible.luaClass)
        try context.export(LuaInterface.vehicleFactory)
        try context.export(Garage.luaClass)
        try context.export(VehicleController.luaClass)
    }
}
