import FactoryMacros

/// An order: lines of items with their prices, in cents.
@Scriptable
public final class Order {
    /// The order's number.
    public let id: String
    /// Each line as "item × price".
    public private(set) var lines: [String] = []
    /// What the order costs, in cents.
    public private(set) var total = 0
    /// A note for the shop, which scripts may change.
    public var note: String?

    /// An empty order numbered `id`.
    public init(id: String) {
        self.id = id
    }

    /// Adds an item at a price in cents; returns the new total.
    public func add(item: String, price: Int) throws -> Int {
        guard price >= 0 else { throw ShopError("the price of \(item) cannot be negative (\(price))") }
        lines.append("\(item) × \(price)")
        total += price
        return total
    }
}

/// An error of the shop's, whose description Lua shows.
public struct ShopError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
