import FactoryRegistry
@testable import FactoryScripting
import LuaBridge
import Testing

/// `register "PizzaFactory" { assisted = { … } }`: an implementation
/// generated from an exported interface's signatures — methods make
/// registrations with their arguments by name, properties are injected.
@Suite("Assisted factories generated from interfaces")
struct AssistedFactoryTests {
    /// The pizzas a generated PizzaFactory makes (lines matter: origins are checked).
    static let pizzas = """
        local ui = require "factoryhost.screens"
        configuration "app" {
          register "CreditService" { scope = "singleton", make = function() return ui.CreditService.new(100) end },
          register "Pizza" { args = { { "radius", "number" }, { "ingredients", "table" } }, deps = { credit = "CreditService" },
            make = function(d, a) return ui.Pizza.new(d.credit, a.radius, a.ingredients) end },
          register "Pizza#small" { args = { ingredients = "table" }, deps = { credit = "CreditService" },
            make = function(d, a) return ui.Pizza.new(d.credit, 10, a.ingredients) end },
        }
        """

    private func makeScreensHost() throws -> FactoryHost {
        try FactoryHost(plugins: [ScreensFixturePlugin()])
    }

    @Test func swiftCallsTheGeneratedFactoryAndGetsItsInjectedProperty() throws {
        let host = try makeScreensHost()
        _ = try host.run(Self.pizzas + """

            configuration "app" {
              register "PizzaFactory" { scope = "singleton",
                assisted = { pizza = "Pizza", smallPizza = "Pizza#small", mediumPizza = "Pizza#small", largePizza = "Pizza#small" } },
            }
            """, name: "p.lua")
        #expect(host.registry.validate().isEmpty)
        let container = try host.container("app")
        let factory = try container.resolve((any PizzaFactory).self)
        let credit = try container.resolve(CreditService.self)
        #expect(try factory.creditService === credit)
        let custom = try factory.pizza(radius: 12.5, ingredients: ["ham", "basil"])
        #expect(custom.radius == 12.5 && custom.ingredients == ["ham", "basil"])
        #expect(try factory.smallPizza(ingredients: []).radius == 10)
        #expect(abs(credit.balance - (100 - custom.price - 3.14)) < 1e-9)
        // Its methods were made once, from the interface: the shop's orders go through them.
        let shop = PizzaShop(factory: factory)
        #expect(try shop.order("large", []).radius == 10)
    }

    @Test func checkReportsAMethodWhoseArgumentsDoNotMatchItsRegistrationWithBothOrigins() throws {
        let host = try makeScreensHost()
        _ = try host.run(Self.pizzas + """

            configuration "app" {
              register "Pizza#plain" { make = function() end },
              register "PizzaFactory" {
                assisted = { pizza = "Pizza#small", smallPizza = "Pizza#small", mediumPizza = "Pizza#plain", largePizza = "Pizza#none" } },
            }
            """, name: "p.lua")
        let problems = host.registry.validate("app").map(\.description)
        #expect(problems.count == 3, "\(problems)")
        #expect(problems.contains("""
            PizzaFactory.pizza passes (radius: number, ingredients: table) to Pizza#small, which takes (ingredients: table) in configuration 'app'
              PizzaFactory registered at p.lua:11
              Pizza#small registered at p.lua:6
            """))
        #expect(problems.contains("""
            PizzaFactory.mediumPizza passes (ingredients: table) to Pizza#plain, which takes no runtime arguments in configuration 'app'
              PizzaFactory registered at p.lua:11
              Pizza#plain registered at p.lua:10
            """))
        #expect(problems.contains { $0.hasPrefix("no registration for Pizza#none in configuration 'app'\n  required by PizzaFactory as largePizza: provider of Pizza#none") })
        #expect(message { _ = try host.container("app").resolve((any PizzaFactory).self) }.hasPrefix("no registration for Pizza#none"))
    }

    @Test func aMethodCalledWithArgumentsItsRegistrationDoesNotTakeSaysWhichMethod() throws {
        let host = try makeScreensHost()
        _ = try host.run(Self.pizzas + """

            configuration "app" {
              register "PizzaFactory" {
                assisted = { pizza = "Pizza#small", smallPizza = "Pizza#small", mediumPizza = "Pizza#small", largePizza = "Pizza#small" } },
            }
            """, name: "p.lua")
        let container = try host.container("app")        // kept: a factory's methods do not keep it
        let factory = try container.resolve((any PizzaFactory).self)
        #expect(message { _ = try factory.pizza(radius: 3, ingredients: []) }
                == "PizzaFactory.pizza(radius: number, ingredients: table): Pizza#small has no runtime argument 'radius' (it takes ingredients: table)")
    }

    @Test func declarationsThatCannotBeGeneratedAreErrorsAtTheirLine() throws {
        let all = #"assisted = { pizza = "Pizza", smallPizza = "Pizza", mediumPizza = "Pizza", largePizza = "Pizza" }"#
        let cases: [(String, String)] = [
            (#"assisted = { pizza = "Pizza" }"#,
             "assisted says what each method of PizzaFactory makes, and smallPizza, mediumPizza, largePizza are missing"),
            (#"assisted = { pizza = "Pizza", smallPizza = "Pizza", mediumPizza = "Pizza", largePizza = "Pizza", smallPiza = "Pizza" }"#,
             "PizzaFactory has no method 'smallPiza', did you mean 'smallPizza'? (methods: pizza, smallPizza, mediumPizza, largePizza)"),
            (#"assisted = { pizza = function() end }"#,
             "assisted method 'pizza' names the registration it makes (a key such as \"Pizza\"), got function "
                + "(a factory written in Lua is make = function(d) return implement(\"PizzaFactory\", { … }) end)"),
            (#"assisted = { pizza = "CreditService", smallPizza = "Pizza", mediumPizza = "Pizza", largePizza = "Pizza" }"#,
             "PizzaFactory.pizza(radius: number, ingredients: table) returns Pizza, but it names CreditService"),
            (#"assisted = { pizza = "Pizza", smallPizza = "Piza", mediumPizza = "Pizza", largePizza = "Pizza" }"#,
             "assisted method 'smallPizza': unknown type 'Piza', did you mean 'Pizza'?"),
            (#"make = function() end, assisted = {}"#,
             "an assisted factory is generated from its interface, so it has no 'make'"),
            (#"args = { n = "number" }, assisted = {}"#,
             "an assisted factory is generated from its interface, so it has no 'args'"),
            (#"assisted = "Pizza""#,
             "'assisted' must be a table of methods to registration keys ({ pizza = \"Key\" }, got string)"),
            (#"deps = { credit = "CreditService" }, "# + all,
             "in an assisted factory, deps name PizzaFactory's properties, and it has no property 'credit' (properties: creditService)"),
            (#"deps = { creditService = "Pizza" }, "# + all,
             "property 'creditService' of PizzaFactory is a CreditService, and Pizza is a Pizza"),
            (#"scope = "weak", assisted = {}"#,
             "the weak scope holds only exported Swift classes"),
        ]
        for (body, expected) in cases {
            let host = try makeScreensHost()
            let text = message { _ = try host.run("require 'factoryhost.screens'\nregister \"PizzaFactory\" { \(body) }", name: "d.lua") }
            #expect(text.hasPrefix("d.lua:2: register \"PizzaFactory\": "), "\(body): \(text)")
            #expect(text.contains(expected), "\(body): \(text)")
        }
        // Only an interface that declares its signatures can be generated.
        let host = try FactoryHost(plugins: [ScreensFixturePlugin(), SessionFixturePlugin()])
        #expect(message { _ = try host.run("require 'factoryhost.session'\nregister \"AuthRemoteAPI\" { assisted = {} }", name: "d.lua") }
                .contains("'assisted' generates an implementation of an interface, and AuthRemoteAPI does not declare its methods' signatures"))
        #expect(message { _ = try host.run("require 'factoryhost.screens'\nregister \"Pizza\" { assisted = {} }", name: "d.lua") }
                .contains("'assisted' generates an implementation of an interface, and Pizza is a class"))
        // Without make, a generated interface says how to generate it.
        #expect(message { _ = try host.run("register \"PizzaFactory\" { }", name: "d.lua") }
                .contains("'make' (the factory function) is missing (or generate PizzaFactory from its interface: assisted = { method = \"Key\", … })"))
    }

    @Test func aPropertyCanBeInjectedFromANamedRegistration() throws {
        let host = try makeScreensHost()
        _ = try host.run(Self.pizzas + """

            configuration "app" {
              register "CreditService#gold" { scope = "singleton", make = function() return ui.CreditService.new(1000) end },
              register "PizzaFactory" { deps = { creditService = "CreditService#gold" },
                assisted = { pizza = "Pizza", smallPizza = "Pizza#small", mediumPizza = "Pizza#small", largePizza = "Pizza#small" } },
            }
            """, name: "p.lua")
        let factory = try host.container("app").resolve((any PizzaFactory).self)
        #expect(try factory.creditService.balance == 1000)
    }

    @Test func scriptsCallItAsAMethodAndCannotReplaceWhatSwiftCalls() throws {
        let host = try makeScreensHost()
        let results = try host.run(Self.pizzas + """

            configuration "app" {
              register "PizzaFactory" { scope = "singleton",
                assisted = { pizza = "Pizza", smallPizza = "Pizza#small", mediumPizza = "Pizza#small", largePizza = "Pizza#small" } },
              register "PizzaFactory#other" {
                assisted = { pizza = "Pizza", smallPizza = "Pizza#small", mediumPizza = "Pizza#small", largePizza = "Pizza#small" } },
              register "PizzaShop" { deps = { factory = "PizzaFactory" }, make = function(d) return ui.PizzaShop.new(d.factory) end },
            }
            local c = container "app"
            local f, other, shop = c:resolve "PizzaFactory", c:resolve "PizzaFactory#other", c:resolve "PizzaShop"
            local function fails(body) local ok, err = pcall(body) assert(not ok) return (tostring(err):gsub("^p.lua:%d+: ", "")) end
            local results = { tostring(f):match("^PizzaFactory %(assisted factory, p.lua:%d+%)$") ~= nil,
              tostring(other):match("^PizzaFactory#other %(assisted factory") ~= nil,
              f:smallPizza({ "ham" }).radius,
              f:smallPizza({ "ham" }, nil).radius,
              fails(function() return f.smallPizza({ "ham" }) end),
              fails(function() return f.smallPizza(other, {}) end),
              fails(function() return f:smallPizza({}, 2) end),
              fails(function() return f:smallPizza("ham") end),
              fails(function() f.smallPizza = function() end end),
              getmetatable(f) }
            -- rawset changes what the script sees, never what Swift calls.
            rawset(f, "smallPizza", function() return "swapped" end)
            rawset(f, "creditService", ui.CreditService.new(0))
            results[#results + 1] = shop:order("small", {}).radius
            results[#results + 1] = shop.creditService == c:resolve "CreditService"
            results[#results + 1] = ui.PizzaShop.new(f):order("small", {}).radius
            return table.unpack(results)
            """, name: "p.lua")
        #expect(results == [
            .boolean(true), .boolean(true), .number(10), .number(10),
            "PizzaFactory.smallPizza(ingredients: table) is a method of the factory it came from: call it as factory:smallPizza(…)",
            "PizzaFactory.smallPizza(ingredients: table) is a method of the factory it came from: call it as factory:smallPizza(…)",
            "PizzaFactory.smallPizza(ingredients: table) takes 1 argument, got 2",
            "PizzaFactory.smallPizza(ingredients: table): bad runtime argument 'ingredients' for Pizza#small (table expected, got string)",
            "PizzaFactory is generated from its interface and read-only: cannot set 'smallPizza'",
            .boolean(false),
            .number(10), .boolean(true), .number(10),
        ])
    }

    @Test func aMethodOfAFactoryWhoseContainerIsGoneSaysSo() throws {
        let host = try makeScreensHost()
        let results = try host.run(Self.pizzas + """

            configuration "app" {
              register "PizzaFactory" {
                assisted = { pizza = "Pizza", smallPizza = "Pizza#small", mediumPizza = "Pizza#small", largePizza = "Pizza#small" } },
            }
            local c = container "app"
            local f = c:resolve "PizzaFactory"
            c:close()
            return select(2, pcall(f.smallPizza, f, {}))
            """, name: "p.lua")
        #expect(results == [LuaValue("PizzaFactory.smallPizza(ingredients: table): the container that made this PizzaFactory is gone "
                                     + "(closed or released); keep it while its factories are in use")])
    }

    @Test func aFailureInTheRegistrationAMethodMakesNamesTheMethod() throws {
        let host = try makeScreensHost()
        let results = try host.run(Self.pizzas + """

            configuration "app" {
              register "Pizza#broken" { args = { ingredients = "table" }, make = function() error({ code = 7 }) end },
              register "PizzaFactory" {
                assisted = { pizza = "Pizza", smallPizza = "Pizza#broken", mediumPizza = "Pizza#small", largePizza = "Pizza#small" } },
            }
            local c = container "app"
            local f = c:resolve "PizzaFactory"
            local ok, err = pcall(f.smallPizza, f, {})
            return tostring(err), err.cause.code
            """, name: "p.lua")
        #expect((try? results[0].string())?.hasPrefix("PizzaFactory.smallPizza(ingredients: table): the factory for Pizza#broken failed") == true,
                "\(results)")
        #expect(results[1] == .integer(7))            // what the factory raised is still there
    }

    @Test func anArgumentOfTypeAnyTakesWhatTheMethodPasses() throws {
        let host = try makeScreensHost()
        _ = try host.run(Self.pizzas + """

            configuration "app" {
              register "Pizza#any" { args = { ingredients = "any" }, deps = { credit = "CreditService" },
                make = function(d, a) return ui.Pizza.new(d.credit, 10, a.ingredients) end },
              register "PizzaFactory" {
                assisted = { pizza = "Pizza", smallPizza = "Pizza#any", mediumPizza = "Pizza#small", largePizza = "Pizza#small" } },
            }
            """, name: "p.lua")
        #expect(host.registry.validate().isEmpty)
    }

    @Test func aHandWrittenImplementationNeedsThePropertiesWithTheirTypes() throws {
        let host = try makeScreensHost()
        let type = try host.types.type(named: "PizzaFactory")
        let methods = "pizza = f, smallPizza = f, mediumPizza = f, largePizza = f"
        let missing = try host.lua.run("local f = function() end return { \(methods) }", name: "t")[0]
        #expect(message { _ = try type.value(from: missing, in: host.lua) }
                == "table does not implement PizzaFactory: missing property creditService "
                   + "(required: pizza, smallPizza, mediumPizza, largePizza; properties: creditService)")
        let wrong = try host.lua.run("local f = function() end return { creditService = 'cash', \(methods) }", name: "t")[0]
        #expect(message { _ = try type.value(from: wrong, in: host.lua) }
                == "table does not implement PizzaFactory: property creditService is a string, not CreditService "
                   + "(required: pizza, smallPizza, mediumPizza, largePizza; properties: creditService)")
        // Changed after the check, it is caught where Swift reads it.
        let results = try host.run("""
            local ui = require "factoryhost.screens"
            local f = function() end
            local t = implement("PizzaFactory", { creditService = ui.CreditService.new(1), \(methods) })
            return ui.PizzaShop.new(t), t
            """, name: "t.lua")
        guard case .table(let table) = results[1] else { Issue.record("no table"); return }
        let shop = try PizzaShop.fromLua(results[0])
        #expect(try shop.factory.creditService.balance == 1)
        try table.rawSet("creditService", 7)
        #expect(message { _ = try shop.factory.creditService } == "PizzaFactory.creditService is integer, expected CreditService")
    }
}
