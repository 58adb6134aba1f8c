import FactoryMacros

/// Where paid orders are kept.
@Scriptable
public final class OrderStore {
    private var orders: [String: Order] = [:]

    public init() {}

    /// Keeps a paid order.
    public func save(_ order: Order) {
        orders[order.id] = order
    }

    /// The order numbered `id`, if one was saved.
    public func find(id: String) -> Order? {
        orders[id]
    }

    /// How many orders are kept.
    public var count: Int { orders.count }
}
