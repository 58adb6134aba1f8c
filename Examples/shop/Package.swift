// swift-tools-version: 6.0
//
// A user's own package, as a Swift developer new to factoryhost would write it
// (docs/YourOwnApp.md walks through it): their types, exported in one attribute
// each; their own host binary; the app's composition scripts and specs; and
// the composition checked at build time.
//
//   ShopKit      the app's types: Order, OrderStore, a PaymentGateway protocol a Lua fake can implement,
//                a @MainActor CheckoutViewModel — and ShopPlugin, which exports them to scripts
//   shophost     the app's own factoryhost: run, check, graph, repl, test, types, under its own name
//   ShopApp      the app embedding the host: it runs Composition/shop.lua and resolves from Swift;
//                the CheckComposition plugin runs `shophost check` on Composition/*.lua when it builds
import PackageDescription

let package = Package(
    name: "shop",
    platforms: [.macOS(.v13)],
    dependencies: [
        // In your package: both from one checkout of factoryhost (see docs/YourOwnApp.md).
        .package(name: "factoryhost", path: "../.."),
        .package(name: "factoryhost-macros", path: "../../Macros"),
    ],
    targets: [
        .target(
            name: "ShopKit",
            dependencies: [
                .product(name: "FactoryMacros", package: "factoryhost-macros"),
                .product(name: "FactoryScripting", package: "factoryhost"),
            ]
        ),
        .executableTarget(
            name: "shophost",
            dependencies: ["ShopKit", .product(name: "FactoryHostCLI", package: "factoryhost")]
        ),
        .target(
            name: "ShopApp",
            dependencies: ["ShopKit", .product(name: "FactoryScripting", package: "factoryhost")],
            plugins: ["CheckComposition"]
        ),
        // `shophost check` on every composition script when ShopApp builds: a broken
        // composition fails `swift build`, with file:line.
        .plugin(
            name: "CheckComposition",
            capability: .buildTool(),
            dependencies: ["shophost"]
        ),
        .testTarget(
            name: "ShopAppTests",
            dependencies: ["ShopApp", "ShopKit"]
        ),
    ]
)
