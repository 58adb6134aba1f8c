import Foundation
import ShopApp
import ShopKit
import Testing

/// The app embedding its host: the composition runs, and Swift resolves what it declares.
@Suite("The shop app embeds its host")
struct ShopAppTests {
    static let composition = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Composition/shop.lua").path

    @Test func theCompositionRunsAndSwiftResolvesFromIt() throws {
        let app = try ShopApp(composition: Self.composition)
        let store = try app.container.resolve(OrderStore.self)
        #expect(store === (try app.container.resolve(OrderStore.self)))          // a singleton
        let gateway = try app.container.resolve((any PaymentGateway).self)
        #expect(try gateway.charge(amount: 100, currency: "EUR"))
        #expect(throws: ShopError.self) { try gateway.charge(amount: 100, currency: "USD") }
        #expect(try app.host.check("app").isEmpty)
    }

    @Test func theTestConfigurationsGatewayIsTheLuaFakeCheckedOnEveryCall() throws {
        let app = try ShopApp(composition: Self.composition, configuration: "app-tests")
        let gateway = try app.container.resolve((any PaymentGateway).self)
        #expect(gateway is LuaPaymentGateway)
        #expect(try gateway.charge(amount: 100, currency: "EUR"))
        #expect(try !gateway.charge(amount: 9000, currency: "EUR"))
    }
}
