import FactoryMacros

/// Takes payments. The app's is a card gateway; specs give a Lua fake.
@ScriptImplementable
public protocol PaymentGateway: AnyObject {
    /// Charges `amount` cents; returns whether the payment went through.
    func charge(amount: Int, currency: String) throws -> Bool
}

/// The real gateway (here, one that accepts payments up to a limit).
@Scriptable
public final class CardGateway: PaymentGateway {
    /// The largest payment it accepts, in cents.
    public let limit: Int

    public init(limit: Int) {
        self.limit = limit
    }

    public func charge(amount: Int, currency: String) throws -> Bool {
        guard currency == "EUR" else { throw ShopError("CardGateway takes EUR, not \(currency)") }
        return amount <= limit
    }
}
