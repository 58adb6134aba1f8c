import LuaBridge

// The screens fixture's types: the pizza factory of the assisted-factory tests —
// an interface with signatures and an injected property, the class its methods
// make, the service that pays, and Swift code that calls the factory.

/// Pays for pizzas. Not `Sendable`: its balance changes unguarded (the core's tests charge it on one
/// thread only).
final class CreditService: LuaExportable {
    static let luaTypeName = "CreditService"
    /// What is left to spend.
    private(set) var balance: Double

    init(balance: Double) { self.balance = balance }

    /// Takes `amount` from the balance.
    ///
    /// - Throws: a `LuaError` (`.runtime`) when the balance is less than `amount`.
    func charge(_ amount: Double) throws {
        guard amount <= balance else { throw LuaError(.runtime, "not enough credit: \(amount) asked, \(balance) left") }
        balance -= amount
    }

    static var luaClass: LuaClass<CreditService> {
        LuaClass<CreditService>()
            .constructor { (balance: Double) in CreditService(balance: balance) }
            .property("balance") { $0.balance }
    }
}

/// A pizza: a radius and ingredients given at run time; making one charges its price to the
/// credit service injected. Immutable, so `Sendable`.
final class Pizza: LuaExportable, Sendable {
    static let luaTypeName = "Pizza"
    /// The named sizes (`Pizza.sizes()` in a script: a class function).
    static let sizes: [(name: String, radius: Double)] = [("small", 10), ("medium", 15), ("large", 20)]
    let radius: Double
    let ingredients: [String]

    init(credit: CreditService, radius: Double, ingredients: [String]) throws {
        self.radius = radius
        self.ingredients = ingredients
        try credit.charge(price)
    }

    /// One cent per square centimetre (rounded to the cent), plus a dollar an ingredient.
    var price: Double { (Double.pi * radius * radius).rounded() / 100 + Double(ingredients.count) }

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
    }
}

/// Four factory methods over one injected, read-only property: scripts generate it from its
/// interface (`register "PizzaFactory" { assisted = { … } }`) or write it (`implement`).
protocol PizzaFactory: AnyObject {
    var creditService: CreditService { get throws }
    func pizza(radius: Double, ingredients: [String]) throws -> Pizza
    func smallPizza(ingredients: [String]) throws -> Pizza
    func mediumPizza(ingredients: [String]) throws -> Pizza
    func largePizza(ingredients: [String]) throws -> Pizza
}

/// A Lua implementation of ``PizzaFactory`` (generated or written): each result is checked.
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
    /// `PizzaFactory` with its signatures and its property: enough to generate an implementation.
    static let pizzaFactory = LuaInterface("PizzaFactory") { LuaPizzaFactory($0) }
        .property("creditService", CreditService.self)
        .method("pizza", ("radius", Double.self), ("ingredients", [String].self), returning: Pizza.self)
        .method("smallPizza", ("ingredients", [String].self), returning: Pizza.self)
        .method("mediumPizza", ("ingredients", [String].self), returning: Pizza.self)
        .method("largePizza", ("ingredients", [String].self), returning: Pizza.self)
}

/// Takes orders by size and makes them with whatever ``PizzaFactory`` it was given: Swift code
/// calling a factory a script implemented. Not `Sendable`: its factory is usually implemented in Lua
/// (owner thread only).
final class PizzaShop: LuaExportable {
    static let luaTypeName = "PizzaShop"
    let factory: any PizzaFactory

    init(factory: any PizzaFactory) { self.factory = factory }

    /// A pizza of `size` (small, medium or large) with `ingredients`.
    ///
    /// - Throws: what the factory throws, or a `LuaError` (`.runtime`) for another size.
    func order(_ size: String, _ ingredients: [String]) throws -> Pizza {
        switch size {
        case "small": try factory.smallPizza(ingredients: ingredients)
        case "medium": try factory.mediumPizza(ingredients: ingredients)
        case "large": try factory.largePizza(ingredients: ingredients)
        default: throw LuaError(.runtime, "PizzaShop.order: size must be small, medium or large (got '\(size)')")
        }
    }

    static var luaClass: LuaClass<PizzaShop> {
        LuaClass<PizzaShop>()
            .constructor(frame: { PizzaShop(factory: try LuaInterface.pizzaFactory.argument($0, 1)) })
            .method("order") { (shop, size: String, ingredients: [String]) in try shop.order(size, ingredients) }
            .property("creditService") { try $0.factory.creditService }
    }
}
