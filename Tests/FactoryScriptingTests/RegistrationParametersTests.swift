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
             "'make' (the factory function) is missing (or, in a configuration that extends one registering it, say override = true to change only its params)"),
            (#"override = true, scope = "transient", params = { word = "hi" }"#,
             "changing only parameters keeps the inherited registration's 'scope' (give make to replace the registration whole)"),
            (#"override = true, deps = { x = "string" }, params = { word = "hi" }"#,
             "changing only parameters keeps the inherited registration's 'deps'"),
            (#"override = true, params = { [1] = "hi" }"#,
             "a parameter's name is an identifier (got [1])"),
            (#"override = true, params = "hi""#,
             "'params' must be a table of names to values (got string)"),
            (#"override = true, params = {}"#,
             "'params' changes no parameter (a parameter whose value is nil is no parameter)"),
            (#"override = true, params = { word = value "name" }"#,
             "parameter 'word' is a configuration value declaration, which belongs in deps (a parameter is a plain value)"),
            (#"override = true, params = { word = provider "string" }"#,
             "parameter 'word' is a provider declaration, which belongs in deps (a parameter is a plain value)"),
        ]
        for (body, expected) in cases {
            let host = try makeHost()
            let text = message { _ = try host.run("register \"string#greeting\" { \(body) }", name: "r.lua") }
            #expect(text.hasPrefix("r.lua:1: register \"string#greeting\": "), "\(body): \(text)")
            #expect(text.contains(expected), "\(body): \(text)")
        }
        let host = try makeHost()
        #expect(message { _ = try host.run(#"register "string#x" { deps = { word = "string" }, params = { word = "hi" }, make = print }"#, name: "r.lua") }
                .contains("'word' is both a parameter and a dependency"))
    }

    @Test func aContributionKeepsBeingOneWhenItsParametersChange() throws {
        let host = try makeHost()
        let results = try host.run("""
            configuration "app" {
              register "string" { into = "map", key = "json", params = { w = "J" }, make = function(d) return d.w end },
              register "string" { into = "map", key = "yaml", make = function() return "Y" end },
            }
            configuration "tests" { extends = "app", register "string#json" { override = true, params = { w = "J2" } } }
            local map = container("tests"):resolve "{string}"
            return map.json, map.yaml
            """, name: "m.lua")
        #expect(results == ["J2", "Y"])
        #expect(host.registry.validate().isEmpty)
    }

    @Test func aFailureAfterAChangeSaysWhereTheParameterWasChanged() throws {
        let host = try makeHost()
        _ = try host.run(Self.greeting + """

            configuration "broken" {
              extends = "app",
              register "string#greeting" { override = true, params = { punctuation = function() error("no punctuation") end } },
            }
            """, name: "g.lua")
        let text = message { _ = try host.container("broken").resolve(String.self, name: "greeting") }
        #expect(text.contains("no punctuation"), "\(text)")
        #expect(text.contains("registered at g.lua:2\n  parameter punctuation changed at g.lua:17"), "\(text)")
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
        // Twice in one configuration: one place says what changes — for an
        // inherited registration and for one of the configuration's own.
        #expect(message {
            _ = try host.run(#"configuration "quiet" { register "string#greeting" { override = true, params = { word = "x" } } }"#, name: "t.lua")
        }.contains("string#greeting's parameters are changed twice"))
        #expect(message {
            _ = try host.run(#"configuration "app" { register "string#greeting" { override = true, params = { word = "x" } } }"#, name: "t.lua")
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
