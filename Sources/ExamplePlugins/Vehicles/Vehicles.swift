import LuaBridge

/// A paint colour (the article's `UIColor`), from the garage's palette: an
/// exported type, so a payload that gives a string where a colour goes is
/// refused by the registry, not painted.
///
/// ```lua
/// local blue = v.Color.new "blue"      -- Color(blue); v.Color.new "mauve" fails: not in the palette
/// ```
public final class Color: LuaExportable, Sendable {
    public static let luaTypeName = "Color"
    /// Every colour there is paint for.
    public static let palette = ["black", "blue", "green", "orange", "red", "silver", "teal", "white"]
    public let name: String

    /// The colour `name`; throws for a name outside the palette.
    public init(named name: String) throws {
        guard Self.palette.contains(name) else {
            throw LuaError(.typeMismatch, "no paint for '\(name)' (colours: \(Self.palette.joined(separator: ", ")))")
        }
        self.name = name
    }

    static var luaClass: LuaClass<Color> {
        LuaClass<Color>()
            .constructor(frame: { frame in
                let name = try frame.string(1)
                guard palette.contains(name) else {
                    throw frame.argumentError(1, "one of \(palette.joined(separator: ", ")) expected, got '\(name)'")
                }
                return try Color(named: name)
            })
            .property("name") { $0.name }
            .equality { $0.name == $1.name }
            .tostring { "Color(\($0.name))" }
    }
}

/// A pickup truck of some colour, with a licence plate once registered; a
/// fake one is for tests.
public final class Pickup: LuaExportable, Sendable {
    public static let luaTypeName = "Pickup"
    public let color: Color
    /// The plate, when the payload gave one (the article's
    /// `(color: UIColor, licensePlate: String)` payload).
    public let licensePlate: String?
    public let isFake: Bool
    public init(color: Color, licensePlate: String? = nil, isFake: Bool = false) {
        self.color = color
        self.licensePlate = licensePlate
        self.isFake = isFake
    }

    static var luaClass: LuaClass<Pickup> {
        LuaClass<Pickup>()
            .constructor { (color: Color, licensePlate: String?, fake: Bool?) in
                Pickup(color: color, licensePlate: licensePlate, isFake: fake ?? false)
            }
            .property("color") { $0.color }
            .property("licensePlate") { pickup -> LuaValue in pickup.licensePlate.map { LuaValue($0) } ?? .nil }
            .property("isFake") { $0.isFake }
            .tostring { $0.describe() }
    }
}

/// A convertible (no options: a plain `Builder<Convertible>` is enough).
public final class Convertible: LuaExportable, Sendable {
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
    func makePickup(color: Color) throws -> Pickup
    func makeConvertible() throws -> Convertible
}

final class LuaVehicleFactory: VehicleFactory, LuaImplemented {
    let implementation: LuaImplementation
    init(_ implementation: LuaImplementation) { self.implementation = implementation }
    func makePickup(color: Color) throws -> Pickup { try implementation.call("makePickup", color, returning: Pickup.self) }
    func makeConvertible() throws -> Convertible { try implementation.call("makeConvertible", returning: Convertible.self) }
}

extension LuaInterface where Protocol == any VehicleFactory {
    static let vehicleFactory = LuaInterface("VehicleFactory", requires: ["makePickup", "makeConvertible"]) { LuaVehicleFactory($0) }
}

/// Fills itself through whatever VehicleFactory it was given.
///
/// Not `Sendable`: what it parks is unsynchronized, and its factory is implemented in Lua (owner thread only).
public final class Garage: LuaExportable {
    public static let luaTypeName = "Garage"
    public let factory: any VehicleFactory
    public private(set) var parked: [String] = []
    public init(factory: any VehicleFactory) { self.factory = factory }

    /// A pickup of each colour (named from the palette), then one
    /// convertible; returns what is parked.
    public func fill(_ colors: [String]) throws -> [String] {
        for color in colors { parked.append(try factory.makePickup(color: Color(named: color)).describe()) }
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
    /// `Pickup(red)`, `FakePickup(blue, KOO-123)`.
    func describe() -> String {
        "\(isFake ? "FakePickup" : "Pickup")(\(color.name)\(licensePlate.map { ", \($0)" } ?? ""))"
    }
}

/// The article's `VehicleController`: given a *closure* that makes pickups
/// from a colour (here a Lua function, typically a provider), it makes a blue
/// and a black one.
public final class VehicleController: LuaExportable, Sendable {
    public static let luaTypeName = "VehicleController"
    public let firstPickup: Pickup
    public let secondPickup: Pickup

    public init(pickupCreator: (Color) throws -> Pickup) throws {
        firstPickup = try pickupCreator(Color(named: "blue"))
        secondPickup = try pickupCreator(Color(named: "black"))
    }

    static var luaClass: LuaClass<VehicleController> {
        LuaClass<VehicleController>()
            .constructor(frame: { frame in
                guard case .function(let creator) = frame.value(1) else {
                    throw frame.typeError(1, expected: "function (Color) -> Pickup")
                }
                return try VehicleController { color in
                    guard let result = try creator.call(color.toLua(in: frame.state)).first, !result.isNil else {
                        throw LuaError(.typeMismatch, "the pickup creator returned nothing for '\(color.name)' (Pickup expected)")
                    }
                    do {
                        return try Pickup.fromLua(result)
                    } catch let error as LuaError {
                        throw LuaError(.typeMismatch, "the pickup creator returned \(result.typeName) for '\(color.name)' (\(error.message))")
                    }
                }
            })
            .property("firstPickup") { $0.firstPickup }
            .property("secondPickup") { $0.secondPickup }
    }
}
