// The shop's own factoryhost: `shophost run`, `check`, `graph`, `repl`, `test`
// and `types`, with the shop's types, under its own name.
import FactoryHostCLI
import ShopKit

FactoryHostCLI.main(name: "shophost", plugins: [ShopPlugin()])
