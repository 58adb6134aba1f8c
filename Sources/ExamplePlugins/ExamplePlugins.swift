import FactoryScripting

/// The plugins the stock `factoryhost` binary ships.
///
/// ```swift
/// let host = try FactoryHost(plugins: ExamplePlugins.all)
/// ```
public enum ExamplePlugins {
    public static var all: [any FactoryPlugin] { [NetworkingPlugin(), SessionPlugin(), ScreensPlugin(), VehiclesPlugin(), PersistencePlugin(), KooberPlugin()] }
}
