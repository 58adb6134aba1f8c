import LuaBridge

/// A pickup truck of some colour; a fake one is for tests.
public final class Pickup: LuaExportable, @unchecked Sendable {
    public static let luaTypeName = "Pickup"
    public let color: String
    public let isFake: Bool
    public init(color: String, isFake: Bool = false) {
        self.color = color
        self.isFake = isFake
    }

    static var luaClass: LuaClass<Pickup> {
        LuaClass<Pickup>()
            .constructor { (color: String, fake: Bool?) in Pickup(color: color, isFake: fake ?? false) }
            .property("color") { $0.color }
            .property("isFake") { $0.isFake }
            .tostring { "\($0.isFake ? "FakePickup" : "Pickup")(\($0.color))" }
    }
}

/// A convertible (no options: a plain `Builder<Convertible>` is enough).
public final class Convertible: LuaExportable, @unchecked Sendable {
    public static let luaTypeName = "Convertible"
    public let isFake: Bool
    public init(isFake: Bool = false) { self.isFake = isFake }

    static var luaClass: LuaClass<Convertible> {
        LuaClass<Convertible>()
            .constructor { (fake: Bool?) in Convertible(isFake: fake ?? false) }
            .property("isFake") { $0.isFake }
            .tostring { $0.isFake ? "FakeConvertible" : "Convertible" }
    }
}

/// The article's `VehicleFactory` protocol; `VehicleContainer` and
/// `FakeVehicleContainer` become two Lua implementations, one per configuration.
public protocol VehicleFactory: AnyObject {
    func makePickup(color: String) throws -> Pickup
    func makeConvertible() throws -> Convertible
}

final class LuaVehicleFactory: VehicleFactory, LuaImplemented {
    let implementation: LuaImplementation
    init(_ implementation: LuaImplementation) { self.implementation = implementation }
    func makePickup(color: String) throws -> Pickup { try implementation.call("makePickup", color, returning: Pickup.self) }
    func makeConvertible() throws -> Convertible { try implementation.call("makeConvertible", returning: Convertible.self) }
}

extension LuaInterface where Protocol == any VehicleFactory {
    static let vehicleFactory = LuaInterface("VehicleFactory", requires: ["makePickup", "makeConvertible"]) { LuaVehicleFactory($0) }
}

/// Fills itself through whatever VehicleFactory it was given.
public final class Garage: LuaExportable, @unchecked Sendable {
    public static let luaTypeName = "Garage"
    public let factory: any VehicleFactory
    public private(set) var parked: [String] = []
    public init(factory: any VehicleFactory) { self.factory = factory }

    /// A pickup of each colour, then one convertible; returns what is parked.
    public func fill(_ colors: [String]) throws -> [String] {
        for color in colors { parked.append(try factory.makePickup(color: color).describe()) }
        parked.append(try factory.makeConvertible().isFake ? "FakeConvertible" : "Convertible")
        return parked
    }

    static var luaClass: LuaClass<Garage> {
        LuaClass<Garage>()
            .constructor(frame: { Garage(factory: try LuaInterface.vehicleFactory.argument($0, 1)) })
            .method("fill") { (garage, colors: [String]) in try garage.fill(colors) }
            .property("parked") { $0.parked }
    }
}

extension Pickup {
    func describe() -> String { "\(isFake ? "FakePickup" : "Pickup")(\(color))" }
}

/// The article's `VehicleController`: given a *closure* that makes pickups
/// (here a Lua function, typically a provider), it makes a blue and a black one.
public final class VehicleController: LuaExportable, @unchecked Sendable {
    public static let luaTypeName = "VehicleController"
    public let firstPickup: Pickup
    public let secondPickup: Pickup

    public init(pickupCreator: (String) throws -> Pickup) throws {
        firstPickup = try pickupCreator("blue")
        secondPickup = try pickupCreator("black")
    }

    static var luaClass: LuaClass<VehicleController> {
        LuaClass<VehicleController>()
            .constructor(frame: { frame in
                guard case .function(let creator) = frame.value(1) else {
                    throw frame.typeError(1, expected: "function (color) -> Pickup")
                }
                return try VehicleController { color in
                    guard let result = try creator.call(LuaValue(color)).first, !result.isNil else {
                        throw LuaError(.typeMismatch, "the pickup creator returned nothing for '\(color)' (Pickup expected)")
                    }
                    do {
                        return try Pickup.fromLua(result)
                    } catch let error as LuaError {
                        throw LuaError(.typeMismatch, "the pickup creator returned \(result.typeName) for '\(color)' (\(error.message))")
                    }
                }
            })
            .property("firstPickup") { $0.firstPickup }
            .property("secondPickup") { $0.secondPickup }
    }
}
