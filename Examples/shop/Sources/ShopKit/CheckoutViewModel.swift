import FactoryMacros

/// The checkout screen's view model: main-actor, as an app's view models are.
@Scriptable @MainActor
public final class CheckoutViewModel {
    private let store: OrderStore
    private let gateway: any PaymentGateway
    /// What the screen shows.
    public private(set) var status = "ready"

    public init(store: OrderStore, gateway: any PaymentGateway) {
        self.store = store
        self.gateway = gateway
    }

    /// Pays for `order` and keeps it; returns whether it was paid.
    public func pay(_ order: Order) throws -> Bool {
        guard try gateway.charge(amount: order.total, currency: "EUR") else {
            status = "declined: \(order.id)"
            return false
        }
        store.save(order)
        status = "paid: \(order.id)"
        return true
    }
}
