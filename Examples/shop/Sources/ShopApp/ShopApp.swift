import FactoryRegistry
import FactoryScripting
import ShopKit

/// The app embedding the host: its composition is a script (checked when this
/// target builds, by the CheckComposition plugin), its objects resolved from Swift.
///
/// ```swift
/// let app = try ShopApp(composition: "Composition/shop.lua")
/// let store = try app.container.resolve(OrderStore.self)
/// ```
public final class ShopApp {
    public let host: FactoryHost
    public let container: Container

    /// Runs the composition script at `path` and makes a container of `configuration`.
    public init(composition path: String, configuration: String = "app") throws {
        host = try FactoryHost(plugins: [ShopPlugin()])
        try host.run(file: path)               // its require finds the modules beside it
        container = try host.container(configuration)
    }
}
