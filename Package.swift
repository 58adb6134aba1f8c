// swift-tools-version: 6.0
//
// factoryhost — a typed factory registry for Swift, scripted in Lua 5.4.
//
// Targets, bottom to top:
//   FactoryhostSupport  what every layer shares and none owns (package access only):
//                the C library imported once, locks, threads, text escaping per format
//   CLua         the system's liblua5.4, found through pkg-config `lua5.4`
//   CLuaShim     the little C that must be C: Lua's macros as functions, error
//                trampolines, protected table access, the capped allocator, hooks
//   LuaBridge    the safe Swift API over one lua_State (values, calls, userdata, limits)
//   LuaInterpreter  lua.c's behaviour over the bridge: running a script as `lua5.4 script.lua`
//                does (`arg`, LUA_INIT, -e/-l, `program: message` reports, exit statuses),
//                for the CLI, the REPL and custom hosts
//   FactoryRegistry  the typed factory registry, pure Swift, no Lua
//                (CStackBounds: where the thread's stack ends, for its depth guard;
//                CActiveResolve: which resolve runs on this thread, for its resolvers)
//   CDryRun      check's dry run: what would change something outside the process, stopped
//   FactoryScripting the host: the Lua DSL over the registry, exported types,
//                interfaces, Swift and Lua plugins
//   ScenarioTesting  `factoryhost test`: spec files (describe/it/expect), the runner, reporters
//   CLibraryLoader  dlopen of an optional system library (for libedit, libsqlite3, libcurl)
//   CLineEditor  the system's libedit (line editing, history, completion), opened when the
//                REPL starts: the C over its globals and callbacks (prompt, Ctrl-C, completion)
//   FactoryREPL  `factoryhost repl`: the prompt's evaluation, pretty printer, completion, :commands
//   CSQLite      the system's libsqlite3 (the persistence example), opened on first use
//   CCurl        the system's libcurl (the movie-loaders example), opened on first use
//   ExamplePlugins   the Swift plugins the stock binary ships (the articles' types)
//   FactoryHostCLI   the command line as a library (run, check, graph), for custom hosts
//   factoryhost  the stock command-line tool: FactoryHostCLI with ExamplePlugins
import PackageDescription

let package = Package(
    name: "factoryhost",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "LuaBridge", targets: ["LuaBridge"]),
        .library(name: "LuaInterpreter", targets: ["LuaInterpreter"]),
        .library(name: "FactoryRegistry", targets: ["FactoryRegistry"]),
        .library(name: "FactoryScripting", targets: ["FactoryScripting"]),
        // Lua's C API, for hosts (and the benchmarks) that need a raw lua_CFunction.
        .library(name: "CLua", targets: ["CLua"]),
        .library(name: "ScenarioTesting", targets: ["ScenarioTesting"]),
        .library(name: "FactoryHostCLI", targets: ["FactoryHostCLI"]),
        .library(name: "FactoryREPL", targets: ["FactoryREPL"]),
        .executable(name: "factoryhost", targets: ["factoryhost"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `swift package generate-documentation`: the DocC catalogs (Scripts/docs.sh). A plugin
        // only: nothing of it is linked into a product.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ],
    targets: [
        .target(
            name: "FactoryhostSupport"
        ),
        .systemLibrary(
            name: "CLua",
            pkgConfig: "lua5.4",
            providers: [.apt(["liblua5.4-dev"]), .brew(["lua"])]
        ),
        .target(
            name: "CLuaShim",
            dependencies: ["CLua"]
        ),
        .target(
            name: "LuaBridge",
            dependencies: ["CLua", "CLuaShim", "CStackBounds", "FactoryhostSupport"]
        ),
        .target(
            name: "LuaInterpreter",
            dependencies: ["LuaBridge", "CLuaShim", "FactoryhostSupport"]
        ),
        .target(
            name: "CStackBounds"
        ),
        .target(
            name: "CActiveResolve"
        ),
        .target(
            name: "FactoryRegistry",
            dependencies: ["CStackBounds", "CActiveResolve", "FactoryhostSupport"]
        ),
        // check's dry run: the functions put in place before a script runs
        // only to collect its declarations (C: made at every check).
        .target(
            name: "CDryRun",
            dependencies: ["CLua"]
        ),
        .target(
            name: "FactoryScripting",
            dependencies: ["LuaBridge", "FactoryRegistry", "CDryRun", "FactoryhostSupport"],
            resources: [.embedInCode("Checking/spec_stubs.lua"), .embedInCode("EditorSupport/dsl_definitions.lua")]
        ),
        // The system's SQLite for the persistence example: its headers to
        // build, the library opened with dlopen when the first store opens.
        // dlopen of an optional system library, with the most telling reason
        // when it fails (shared by the three loaders below).
        .target(
            name: "CLibraryLoader",
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
        ),
        .target(
            name: "CSQLite",
            dependencies: ["CLibraryLoader"],
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
        ),
        // HTTP for the movie-loaders example: the system's libcurl, opened
        // with dlopen on the first request (never at start-up).
        .target(
            name: "CCurl",
            dependencies: ["CLibraryLoader"],
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
        ),
        .target(
            name: "ScenarioTesting",
            dependencies: ["CLuaShim", "LuaBridge", "LuaInterpreter", "FactoryRegistry", "FactoryScripting", "FactoryhostSupport"],
            resources: [.embedInCode("Lua/test_library.lua")]
        ),
        .target(
            name: "ExamplePlugins",
            dependencies: ["LuaBridge", "FactoryRegistry", "FactoryScripting", "CSQLite", "CCurl", "FactoryhostSupport"]
        ),
        // The REPL's line editing: the system's libedit (its headers to build,
        // the library opened with dlopen when the REPL starts on a terminal),
        // its globals and callbacks set from C.
        .target(
            name: "CLineEditor",
            dependencies: ["CLibraryLoader"],
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
        ),
        .target(
            name: "FactoryREPL",
            dependencies: ["LuaBridge", "LuaInterpreter", "FactoryRegistry", "FactoryScripting", "CLineEditor", "FactoryhostSupport"],
            resources: [.embedInCode("Lua/repl.lua"), .embedInCode("Lua/repl_printer.lua"), .embedInCode("Lua/repl_completion.lua")]
        ),
        .target(
            name: "FactoryHostCLI",
            dependencies: [
                "CLuaShim",
                "CStackBounds",
                "FactoryhostSupport",
                "LuaBridge",
                "LuaInterpreter",
                "FactoryRegistry",
                "FactoryScripting",
                "ScenarioTesting",
                "FactoryREPL",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "factoryhost",
            dependencies: ["FactoryHostCLI", "ExamplePlugins"]
        ),
        // Fuzz targets (DSL scripts, spec files, value conversion): a corpus
        // replayer in a normal build, a libFuzzer binary under Scripts/fuzz.sh.
        .executableTarget(
            name: "factoryhost-fuzz",
            dependencies: ["ExamplePlugins", "FactoryRegistry", "FactoryScripting", "LuaBridge", "ScenarioTesting"],
            path: "Fuzz",
            exclude: ["Corpus"]
        ),
        // The README's "your own host binary" example, built and run by the end-to-end tests.
        .executableTarget(
            name: "custom-host-example",
            dependencies: ["FactoryHostCLI", "FactoryScripting", "LuaBridge", "LuaInterpreter"],
            path: "Examples/custom-host",
            exclude: ["greet.lua"]
        ),
        // What tests that race real threads share (no product: tests only).
        .target(
            name: "ThreadTestSupport",
            path: "Tests/ThreadTestSupport"
        ),
        .testTarget(
            name: "FactoryhostSupportTests",
            dependencies: ["FactoryhostSupport"]
        ),
        .testTarget(
            name: "LuaBridgeTests",
            dependencies: ["LuaBridge", "CLua", "CLuaShim"]
        ),
        .testTarget(
            name: "FactoryRegistryTests",
            dependencies: ["FactoryRegistry", "FactoryhostSupport"]
        ),
        // The core's tests use their own fixture plugins (Fixtures/), never the examples':
        // changing an example cannot break them.
        .testTarget(
            name: "FactoryScriptingTests",
            dependencies: ["FactoryScripting", "FactoryRegistry", "LuaBridge", "ThreadTestSupport"]
        ),
        // The example plugins' own behaviour: their types under threads, the loopback
        // server, the README's script with the shipped types, their definitions and shapes.
        .testTarget(
            name: "ExamplePluginsTests",
            dependencies: ["ExamplePlugins", "FactoryScripting", "LuaBridge", "ThreadTestSupport"]
        ),
        .testTarget(
            name: "FactoryHostCLITests",
            dependencies: ["FactoryHostCLI", "CLibraryLoader", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // The runner's parts without a process: the worker protocol, reporters, failure places.
        .testTarget(
            name: "ScenarioTestingTests",
            dependencies: ["ScenarioTesting", "FactoryhostSupport"]
        ),
        // `run`'s core without a process: arg, preludes, statuses, the time limit.
        .testTarget(
            name: "LuaInterpreterTests",
            dependencies: ["LuaInterpreter", "LuaBridge"]
        ),
        // The prompt's reading of what is typed, without a terminal.
        .testTarget(
            name: "FactoryREPLTests",
            dependencies: ["FactoryREPL"]
        ),
        .testTarget(
            name: "ReadmeExampleTests",
            dependencies: ["FactoryRegistry"]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["factoryhost", "custom-host-example", "FactoryScripting", "ExamplePlugins"],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
