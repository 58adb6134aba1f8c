// swift-tools-version: 6.0
//
// factoryhost's macros — @Scriptable and @ScriptImplementable — in a package
// of their own, so that building factoryhost, its CLI and its libraries never
// compiles swift-syntax: only a package that asks for the macros does.
//
//   FactoryMacrosPlugin  the compiler plugin (swift-syntax): what each attribute expands to
//   FactoryMacros        the attributes as a library declares them, with LuaBridge re-exported
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "factoryhost-macros",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "FactoryMacros", targets: ["FactoryMacros"]),
    ],
    dependencies: [
        .package(name: "factoryhost", path: ".."),
        .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"604.0.0"),
    ],
    targets: [
        .macro(
            name: "FactoryMacrosPlugin",
            dependencies: [
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]
        ),
        .target(
            name: "FactoryMacros",
            dependencies: ["FactoryMacrosPlugin", .product(name: "LuaBridge", package: "factoryhost")]
        ),
        .testTarget(
            name: "FactoryMacrosTests",
            dependencies: [
                "FactoryMacros", "FactoryMacrosPlugin",
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
                .product(name: "FactoryScripting", package: "factoryhost"),
            ]
        ),
    ]
)
