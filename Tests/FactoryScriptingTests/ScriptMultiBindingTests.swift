@testable import FactoryScripting
import FactoryRegistry
import LuaBridge
import Testing

/// `register "Handler" { into = "set" | "map", … }` and `deps = { all =
/// "[Handler]", byName = "{Handler}" }` in scripts.
@Suite("Multi-bindings in scripts")
struct ScriptMultiBindingTests {
    private let declarations = """
        interface "Handler" { "handle" }
        local function handler(name) return function() return { handle = function(self, x) return name .. ":" .. x end } end end
        configuration "app" {
          register "Handler" { into = "set", make = handler("json") },
          register "Handler" { into = "set", name = "xml", make = handler("xml") },
          register "Handler" { into = "map", key = "csv", make = handler("csv") },
          register "table#router" { deps = { all = "[Handler]", byName = "{Handler}", none = "[Cache]" },
            make = function(d) return d end },
        }
        configuration "app-tests" { extends = "app",
          register "Handler" { into = "set", name = "xml", override = true, make = handler("fake") },
          register "Handler" { into = "set", make = handler("extra") },
        }
        """

    @Test func listsAndMapsInOrderExtendedAndOverridden() throws {
        let host = try makeHost()
        try host.run(declarations, name: "app.lua")
        let result = try host.run("""
            local out = {}
            for _, config in ipairs({ "app", "app-tests" }) do
              local r = container(config):resolve "table#router"
              local names = {}
              for i, h in ipairs(r.all) do names[i] = h:handle("x") end
              out[#out + 1] = table.concat(names, ",") .. "|" .. r.byName.csv:handle("y") .. "|" .. #r.none
            end
            return out[1], out[2], #container("app"):resolve "[Handler]"
            """, name: "use.lua")
        #expect(result == ["json:x,xml:x|csv:y|0", "json:x,fake:x,extra:x|csv:y|0", 2])
        let problems = try host.check()
        #expect(problems.isEmpty, "\(problems)")
        let graph = try host.registry.graph(of: "app-tests").renderTree()
        #expect(graph.contains("├── all: [Handler] [transient] app.lua:4"), "\(graph)")
        #expect(graph.contains("│   ├── Handler#xml [transient] app.lua:11"), "\(graph)")
        #expect(graph.contains("byName: {Handler} [transient] app.lua:6"), "\(graph)")
    }

    @Test(arguments: [
        ("register '[Handler]' { make = print }", "a collection is made from contributions — register \"Handler\" { into = \"set\", … }"),
        ("register '{Handler}' { make = print }", "a collection is made from contributions — register \"Handler\" { into = \"map\", key = \"…\", … }"),
        ("register 'Handler' { into = 'bag', make = print }", "'into' is \"set\" or \"map\" (got \"bag\")"),
        ("register 'Handler' { into = 'map', make = print }", "a map contribution says its key"),
        ("register 'Handler' { into = 'set', key = 'k', make = print }", "a set has no keys"),
        ("register 'Handler' { key = 'k', make = print }", "'key' goes with into = \"map\""),
        ("register 'table#t' { deps = { x = '[Handler]#n' }, make = print }", "a collection has no name"),
        ("register 'table#t' { deps = { x = '[Hanlder]' }, make = print }", "unknown type 'Hanlder', did you mean 'Handler'?"),
        ("register 'table#t' { deps = { x = '[Handler#x]' }, make = print }", "a collection is of a type, without a name (write [Handler])"),
        ("register 'Handler' { into = 'set', args = { n = 'integer' }, make = print }", "a contribution takes no runtime arguments"),
    ])
    func badContributionsSayWhatIsWrong(code: String, expected: String) throws {
        let host = try makeHost()
        let text = message { _ = try host.run("interface 'Handler' { 'handle' }\n" + code, name: "bad.lua") }
        #expect(text.contains(expected), "\(text)")
    }
}
