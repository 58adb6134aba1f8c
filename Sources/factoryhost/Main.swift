import ExamplePlugins
import FactoryHostCLI

/// The stock `factoryhost` binary: the command line with the example plugins.
@main
enum Main {
    static func main() {
        FactoryHostCLI.main(name: "factoryhost", plugins: ExamplePlugins.all)
    }
}
