import FactoryRegistry
@testable import FactoryScripting
import LuaBridge
import Testing

/// `params = { … }` on a registration, and an override that changes only
/// some of them (Typhoon's definition inheritance): the rest — factory,
/// scope, dependencies, the other parameters — is inherited.
@Suite("Registration parameters a configuration changes alone")
struct RegistrationParametersTests {
    static let greeting = """
        configuration "app" {
          register "string#greeting" { scope = "singleton", deps = { name = value "name" },
            params = { word = "hello", punctuation = function() return "!" end },
            make = function(d) return d.word .. ", " .. d.name .. d.punctuation() end },
        }
        value "name" { type = "string", default = "world" }
        configuration "quiet" {
          extends = "app",
          register "string#greeting" { override = true, params = { punctuation = function() return "." end } },
        }
        configuration "formal" {
          extends = "quiet",
          register "string#greeting" { override = true, params = { word = "good day" } },
        }
        """

    @Test func anExtendingConfigurationChangesOneParameterAndInheritsTheRest() throws {
        let host = try makeHost()
        _ = try host.run(Self.greeting, name: "g.lua")
        #expect(host.registry.validate().isEmpty)
        func greeting(_ configuration: String) throws -> String {
            let container = try host.container(configuration)
            let first = try container.resolve(String.self, name: "greeting")
            #expect(try container.resolve(String.self, name: "greeting") == first)
            return first
        }
        #expect(try greeting("app") == "hello, world!")
        #expect(try greeting("quiet") == "hello, world.")
        #expect(try greeting("formal") == "good day, world.")
        // The graph says which parameter was changed, and where; the registration stays app's.
        let graph = try host.registry.graph(of: "formal").renderTree()
        #expect(graph == "string#greeting [singleton] params(punctuation: function, changed at g.lua:9; word: string, changed at g.lua:13) g.lua:2\n"
                + "└── name: value \"name\"" || graph.hasPrefix(
                    "string#greeting [singleton] params(punctuation: function, changed at g.lua:9; word: string, changed at g.lua:13) g.lua:2"), "\(graph)")
    }

    @Test func aParameterItDoesNotHaveOrOfAnotherKindIsAProblemNamingBothPlaces() throws {
        let host = try makeHost()
        _ = try host.run(Self.greeting + """

            configuration "typo" {
              extends = "app",
              register "string#greeting" { override = true, params = { wrod = "hi", punctuation = "?" } },
            }
            """, name: "g.lua")
        let problems = host.registry.validate("typo").map(\.description)
        #expect(problems == ["""
            string#greeting changes parameters of the registration it overrides, and parameter 'punctuation' is a function, not a string; \
            it has no parameter 'wrod', did you mean 'word'? in configuration 'typo'
              string#greeting registered at g.lua:2 (parameters: punctuation: function, word: string)
              changed at g.lua:17
            """])
        #expect(message { _ = try host.container("typo") }.hasPrefix("string#greeting changes parameters of the registration it overrides"))
    }

    @Test func whatAChangeOfParametersCannotSay() throws {
        let cases: [(String, String)] = [
            (#"params = { word = "hi" }"#,
             "'make' (the factory function) is missing (to change only the parameters of an inherited registration, say override = true)"),
            (#"override = true, scope = "transient", params = { word = "hi" }"#,
             "changing only parameters keeps the inherited registration's 'scope' (give make to replace the registration whole)"),
            (#"override = true, deps = { x = "string" }, params = { word = "hi" }"#,
             "changing only parameters keeps the inherited registration's 'deps'"),
            (#"override = true, params = { [1] = "hi" }"#,
             "a parameter's name is an identifier (got [1])"),
            (#"override = true, params = "hi""#,
             "'params' must be a table of names to values (got string)"),
        ]
        for (body, expected) in cases {
            let host = try makeHost()
            let text = message { _ = try host.run("register \"string#greeting\" { \(body) }", name: "r.lua") }
            #expect(text.hasPrefix("r.lua:1: register \"string#greeting\" (r.lua:1): "), "\(body): \(text)")
            #expect(text.contains(expected), "\(body): \(text)")
        }
        let host = try makeHost()
        #expect(message { _ = try host.run(#"register "string#x" { deps = { word = "string" }, params = { word = "hi" }, make = print }"#, name: "r.lua") }
                .contains("'word' is both a parameter and a dependency"))
    }

    @Test func changesInOneConfigurationInAChildAndOfNothing() throws {
        let host = try makeHost()
        _ = try host.run(Self.greeting + """

            configuration "app" {
              register "string#greeting" { override = true, params = { word = "hey" } },
            }
            configuration "alone" {
              register "string#greeting" { override = true, params = { word = "hey" } },
            }
            """, name: "g.lua")
        // In app itself: app's own registration changed in place (and so everything extending it).
        #expect(try host.container("app").resolve(String.self, name: "greeting") == "hey, world!")
        #expect(try host.container("formal").resolve(String.self, name: "greeting") == "good day, world.")
        #expect(host.registry.validate("alone").map(\.message) == ["string#greeting says it overrides, but there is nothing to override"])
        // Twice in one configuration: one place says what changes.
        #expect(message {
            _ = try host.run(#"configuration "quiet" { register "string#greeting" { override = true, params = { word = "x" } } }"#, name: "t.lua")
        }.contains("string#greeting's parameters are changed twice"))
        // A child container changes parameters of its parent's registration.
        let results = try host.run("""
            local c = container "app"
            local child = c:child { register "string#greeting" { override = true, params = { word = "hi" } } }
            return child:resolve "string#greeting", c:resolve "string#greeting",
              select(2, pcall(c.child, c, { register "string#other" { override = true, params = { word = "hi" } } }))
            """, name: "c.lua")
        #expect(results.prefix(2) == ["hi, world!", "hey, world!"])
        #expect((try? results[2].string())?.contains("string#other changes parameters, but the container has no string#other") == true, "\(results)")
    }
}
