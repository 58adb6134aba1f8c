// A host binary of your own: the factoryhost command line (run, check,
// graph) with your Swift plugins. Build it with
//     swift build --product custom-host-example
// and run scripts with
//     .build/debug/custom-host-example run Examples/custom-host/greet.lua
import FactoryHostCLI
import FactoryScripting
import LuaBridge

/// The type the plugin exports.
final class Greeter: LuaExportable {
    static let luaTypeName = "Greeter"
    let greeting: String
    init(greeting: String) { self.greeting = greeting }
    func greet(_ name: String) -> String { "\(greeting), \(name)!" }
}

/// A main-actor type, as an app's view models are: each member runs on the
/// main actor, which is where this host runs Lua (its main thread).
@MainActor final class GuestBook: LuaExportable {
    nonisolated static let luaTypeName = "GuestBook"
    private(set) var names: [String] = []
    func sign(_ name: String) -> Int { names.append(name); return names.count }

    nonisolated static var luaClass: LuaClass<GuestBook> {
        LuaClass<GuestBook>()
            .constructor { try LuaMainActor.run("GuestBook.new") { GuestBook() } }
            .method("sign") { (book: GuestBook, name: String) in try LuaMainActor.run("GuestBook.sign") { book.sign(name) } }
            .property("names") { book in try LuaMainActor.run("GuestBook.names") { book.names } }
    }
}

/// The plugin: `require "factoryhost.greetings"` and a Swift-registered factory.
struct GreetingsPlugin: FactoryPlugin {
    let name = "greetings"
    func install(in context: PluginContext) throws {
        try context.export(LuaClass<Greeter>()
            .constructor { (greeting: String) in Greeter(greeting: greeting) }
            .method("greet") { (greeter, name: String) in greeter.greet(name) })
        try context.export(GuestBook.luaClass)
        try context.configuration("base").register(Greeter.self, scope: .singleton) { _ in Greeter(greeting: "Hello") }
    }
}

FactoryHostCLI.main(plugins: [GreetingsPlugin()])
