import FactoryScripting
import LuaBridge

/// `require "factoryhost.vehicles"`: the generic-factories article's types —
/// Color, Pickup, Convertible, the VehicleFactory interface, Garage, VehicleController.
public struct VehiclesPlugin: FactoryPlugin {
    public let name = "vehicles"
    /// In memory only.
    public var capabilities: PluginCapabilities { [] }
    /// An example's types are the article's, not the user's: a script names
    /// them after `require "factoryhost.vehicles"` (until then `User`, `Cache`… are free).
    public var typeNamesAreGlobal: Bool { false }
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
