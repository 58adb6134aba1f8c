// swift-tools-version: 6.0
//
// factoryhost's benchmarks, kept out of the main package so that comparison
// contenders (Swinject) never slow its build or CI.
//
//   swift run -c release --package-path Benchmarks factoryhost-bench [--json] [--filter CASE]
//   Scripts/bench.sh      (builds the release factoryhost for the start-up case first)
import PackageDescription

let package = Package(
    name: "factoryhost-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "factoryhost", path: ".."),
        // @Scriptable's generated export, against the hand-written one (lua_call's macro_method).
        .package(name: "factoryhost-macros", path: "../Macros"),
        .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
    ],
    targets: [
        .executableTarget(
            name: "factoryhost-bench",
            dependencies: [
                .product(name: "FactoryRegistry", package: "factoryhost"),
                .product(name: "LuaBridge", package: "factoryhost"),
                .product(name: "FactoryScripting", package: "factoryhost"),
                .product(name: "FactoryREPL", package: "factoryhost"),
                .product(name: "CLua", package: "factoryhost"),
                .product(name: "FactoryMacros", package: "factoryhost-macros"),
                .product(name: "Swinject", package: "Swinject"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
