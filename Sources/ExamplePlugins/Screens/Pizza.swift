import FactoryhostSupport
import LuaBridge

/// Pays for pizzas (the pizza factory's one injected dependency). A singleton, so shared by every thread:
/// its balance lives behind a lock (`Protected`), and the compiler checks that it is `Sendable`.
public final class CreditService: LuaExportable, Sendable {
    public static let luaTypeName = "CreditService"
    private let storedBalance: Protected<Double>
    /// What is left to spend.
    public var balance: Double { storedBalance.withLock { $0 } }
    /// The most a balance may hold: money stays exact in cents below it.
    public static let maximumBalance = 1e12
    /// A service holding `balance`.
    ///
    /// - Throws: a `LuaError` (`.runtime`) unless `balance` is between 0 and ``maximumBalance``.
    public init(balance: Double) throws {
        guard balance.isFinite, balance >= 0, balance <= Self.maximumBalance else {
            throw LuaError(.runtime, "a credit balance must be between 0 and \(Self.money(Self.maximumBalance)) (got \(balance))")
        }
        storedBalance = Protected(balance)
    }

    /// Takes `amount` from the balance, or fails if there is not enough (check and take under one lock, so
    /// two threads charging at once cannot both pass the check and overdraw it).
    ///
    /// - Throws: a `LuaError` (`.runtime`) when the balance is less than `amount`.
    public func charge(_ amount: Double) throws {
        try storedBalance.withLock { balance in
            guard amount <= balance else {
                throw LuaError(.runtime, "not enough credit: a \(Self.money(amount)) pizza, \(Self.money(balance)) left")
            }
            balance -= amount
        }
    }

    /// "$12.50"; amounts that cents cannot hold are written as numbers.
    static func money(_ value: Double) -> String {
        guard let cents = Int(exactly: (value * 100).rounded()), abs(cents) < 1 << 53 else { return "$\(value)" }
        let rest = abs(cents) % 100
        return "\(cents < 0 ? "-" : "")$\(abs(cents) / 100).\(rest < 10 ? "0" : "")\(rest)"
    }

    static var luaClass: LuaClass<CreditService> {
        LuaClass<CreditService>()
            .constructor { (balance: Double) in try CreditService(balance: balance) }
            .property("balance") { $0.balance }
    }
}

/// A pizza: an injected credit service, a radius and ingredients given at
/// run time. Making one charges its price.
public final class Pizza: LuaExportable, Sendable {
    public static let luaTypeName = "Pizza"
    public static let smallRadius = 10.0, mediumRadius = 15.0, largeRadius = 20.0
    /// The named sizes, by name — what `Pizza.sizes()` gives a script, so a
    /// Lua PizzaFactory takes its radii from here rather than copying them.
    public static let sizes: [(name: String, radius: Double)] = [("small", smallRadius), ("medium", mediumRadius), ("large", largeRadius)]
    /// The largest pizza the shop makes (a kilometre across).
    public static let maximumRadius = 50_000.0
    public let radius: Double
    public let ingredients: [String]

    public init(credit: CreditService, radius: Double, ingredients: [String]) throws {
        guard radius > 0, radius <= Self.maximumRadius else {
            throw LuaError(.runtime, "a pizza needs a radius above 0 and at most \(Int(Self.maximumRadius)) cm (got \(radius))")
        }
        self.radius = radius
        self.ingredients = ingredients
        try credit.charge(price)
    }

    /// One cent per square centimetre, plus a dollar an ingredient.
    public var price: Double { (Double.pi * radius * radius).rounded() / 100 + Double(ingredients.count) }

    static var luaClass: LuaClass<Pizza> {
        LuaClass<Pizza>()
            .constructor { (credit: CreditService, radius: Double, ingredients: [String]) in
                try Pizza(credit: credit, radius: radius, ingredients: ingredients)
            }
            .classFunction("sizes") { frame in
                let sizes = try frame.state.newTable(hashCapacity: Self.sizes.count)
                for size in Self.sizes { try sizes.rawSet(LuaValue(size.name), .number(size.radius)) }
                try frame.push(.table(sizes))
                return 1
            }
            .property("radius") { $0.radius }
            .property("ingredients") { $0.ingredients }
            .property("price") { $0.price }
            .tostring { "Pizza(\(Int($0.radius.rounded(.down))) cm: \($0.ingredients.joined(separator: ", ")), \(CreditService.money($0.price)))" }
    }
}

/// The Typhoon article's `PizzaFactory` protocol: four factory methods over
/// one injected dependency, the read-only `creditService`. Scripts generate
/// it from this interface (`register "PizzaFactory" { assisted = { … } }`)
/// or write it by hand (`implement("PizzaFactory", …)`).
public protocol PizzaFactory: AnyObject {
    var creditService: CreditService { get throws }
    func pizza(radius: Double, ingredients: [String]) throws -> Pizza
    func smallPizza(ingredients: [String]) throws -> Pizza
    func mediumPizza(ingredients: [String]) throws -> Pizza
    func largePizza(ingredients: [String]) throws -> Pizza
}

final class LuaPizzaFactory: PizzaFactory, LuaImplemented {
    let implementation: LuaImplementation
    init(_ implementation: LuaImplementation) { self.implementation = implementation }
    var creditService: CreditService { get throws { try implementation.property("creditService") } }
    func pizza(radius: Double, ingredients: [String]) throws -> Pizza {
        try implementation.call("pizza", radius, ingredients, returning: Pizza.self)
    }
    func smallPizza(ingredients: [String]) throws -> Pizza { try implementation.call("smallPizza", ingredients, returning: Pizza.self) }
    func mediumPizza(ingredients: [String]) throws -> Pizza { try implementation.call("mediumPizza", ingredients, returning: Pizza.self) }
    func largePizza(ingredients: [String]) throws -> Pizza { try implementation.call("largePizza", ingredients, returning: Pizza.self) }
}

extension LuaInterface where Protocol == any PizzaFactory {
    /// What a script sees of `PizzaFactory`, signatures and all: enough to
    /// generate an implementation from it.
    static let pizzaFactory = LuaInterface("PizzaFactory") { LuaPizzaFactory($0) }
        .property("creditService", CreditService.self)
        .method("pizza", ("radius", Double.self), ("ingredients", [String].self), returning: Pizza.self)
        .method("smallPizza", ("ingredients", [String].self), returning: Pizza.self)
        .method("mediumPizza", ("ingredients", [String].self), returning: Pizza.self)
        .method("largePizza", ("ingredients", [String].self), returning: Pizza.self)
}

/// Takes orders by size name and makes them with whatever PizzaFactory it
/// was given — Swift code calling a factory a script implemented.
///
/// Not `Sendable`: its orders are unsynchronized, and its factory is usually implemented in Lua (owner thread only).
public final class PizzaShop: LuaExportable {
    public static let luaTypeName = "PizzaShop"
    public let factory: any PizzaFactory
    public private(set) var orders: [Pizza] = []
    public init(factory: any PizzaFactory) { self.factory = factory }

    public func order(_ size: String, _ ingredients: [String]) throws -> Pizza {
        let pizza: Pizza
        switch size {
        case "small": pizza = try factory.smallPizza(ingredients: ingredients)
        case "medium": pizza = try factory.mediumPizza(ingredients: ingredients)
        case "large": pizza = try factory.largePizza(ingredients: ingredients)
        default:
            guard let radius = Double(size) else {
                throw LuaError(.runtime, "PizzaShop.order: size must be small, medium, large or a radius (got '\(size)')")
            }
            pizza = try factory.pizza(radius: radius, ingredients: ingredients)
        }
        orders.append(pizza)
        return pizza
    }

    static var luaClass: LuaClass<PizzaShop> {
        LuaClass<PizzaShop>()
            .constructor(frame: { PizzaShop(factory: try LuaInterface.pizzaFactory.argument($0, 1)) })
            .method("order") { (shop, size: String, ingredients: [String]) in try shop.order(size, ingredients) }
            .property("orderCount") { $0.orders.count }
            .property("creditService") { try $0.factory.creditService }
            .property("smallRadius") { _ in Pizza.smallRadius }
            .property("mediumRadius") { _ in Pizza.mediumRadius }
            .property("largeRadius") { _ in Pizza.largeRadius }
    }
}
