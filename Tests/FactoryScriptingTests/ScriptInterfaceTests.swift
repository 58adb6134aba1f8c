@testable import FactoryScripting
import FactoryRegistry
import LuaBridge
import Testing

/// `interface "Logger" { "info", "warn" }`: a composition written in Lua
/// names its own types — registration keys and dependencies that check
/// validates, factory results that must provide the methods.
@Suite("Interfaces declared in scripts")
struct ScriptInterfaceTests {
    private let declarations = """
        interface "Logger" { "info", "warn" }
        interface "Clock" { "now" }
        configuration "app" {
          register "Logger" { scope = "singleton", make = function()
            return { lines = {}, info = function(self, m) self.lines[#self.lines + 1] = m end, warn = function() end }
          end },
          register "table#service" { deps = { log = "Logger" }, make = function(d) d.log:info("built") return { log = d.log } end },
          register "Logger#broken" { make = function() return { info = function() end, warn = "loud" } end },
        }
        """

    @Test func registrationsAndDependenciesUseTheInterface() throws {
        let host = try makeHost()
        try host.run(declarations, name: "app.lua")
        let result = try host.run("""
            local c = container "app"
            local s = c:resolve "table#service"
            return s.log.lines[1], s.log == c:resolve "Logger", describe("Logger").kind
            """, name: "use.lua")
        #expect(result == ["built", true, "interface"])
        // What a factory returns must provide every method, as functions.
        let broken = message { _ = try host.run("container('app'):resolve 'Logger#broken'", name: "b.lua") }
        #expect(broken.contains("the factory for Logger#broken returned a table that does not implement Logger: missing warn")
                || broken.contains("warn is a string, not a function"), "\(broken)")
    }

    @Test func checkValidatesDependenciesOnScriptInterfaces() throws {
        let host = try makeHost()
        let path = try writeScript("""
            interface "Clock" { "now" }
            configuration "app" {
              register "table#report" { deps = { clock = "Clock" }, make = function(d) return {} end },
            }
            """)
        let run = host.declare(file: path)
        #expect(run.error == nil)
        let problems = try host.check().map { "\($0.kind): \($0.message)" }
        #expect(problems == ["missingRegistration: no registration for Clock"], "\(problems)")
    }

    @Test func declaringTwiceTheSameWayIsFineDifferentlyAnError() throws {
        let host = try makeHost()
        _ = try host.run("interface 'Logger' { 'info', 'warn' } interface 'Logger' { 'warn', 'info' }", name: "same.lua")
        let differently = message { _ = try host.run("interface 'Logger' { 'info' }", name: "other.lua") }
        #expect(differently == "other.lua:1: interface 'Logger' is declared twice, differently: { info, warn } at same.lua:1, and { info } here")
    }

    @Test(arguments: [
        ("interface 'Cache' { 'x' }", "interface 'Cache': there is a type 'Cache' already (exported by plugin 'networking'); choose another name"),
        ("interface 'table' { 'x' }", "bad argument #1 to 'interface' (an interface name is a type name"),
        ("interface 'userdata' { 'x' }", "bad argument #1 to 'interface' (an interface name is a type name"),
        ("interface 'Two words' { 'x' }", "bad argument #1 to 'interface' (an interface name is a type name"),
        ("interface 'Empty' {}", "an interface lists at least one method"),
        ("interface 'X' { 'a b' }", "list its methods by name"),
        ("interface 'X' (setmetatable({}, { __index = function(t, i) if i == 1 then return 'm' end end }))", "an interface lists at least one method"),
        ("interface 'A#b' { 'x' }", "bad argument #1 to 'interface' (an interface name is a type name"),
        ("interface '' { 'x' }", "bad argument #1 to 'interface' (an interface name is a type name"),
        ("interface 'X' { a = 1 }", "list its methods by name"),
        ("interface 'X' { 'a', 'a' }", "a method is listed twice"),
        ("interface 'X' (42)", "bad argument #1 to 'interface \"X\"' (table of method names"),
        ("interface(nil)", "bad argument #1 to 'interface' (string expected, got nil)"),
    ])
    func badDeclarationsSayWhatIsWrong(script: String, expected: String) throws {
        let host = try makeHost()
        let text = message { _ = try host.run(script, name: "bad.lua") }
        #expect(text.contains(expected), "\(text)")
    }
}

/// Fixes after an attack on interfaces, undeclared dependencies and the
/// dry run (each failed before its fix).
@Suite("Interfaces and undeclared dependencies under attack")
struct ScriptInterfaceAttackTests {
    /// A provider taken from the container (not declared in deps) and called
    /// inside make is a resolve like any other: undeclared, it fails.
    @Test func aProviderTakenFromTheContainerIsChecked() throws {
        let host = try makeHost()
        let result = try host.run("""
            scope "session"
            local c
            configuration "app" {
              register "table#user" { scope = "session", make = function() return { name = "ana" } end },
              register "table#cache" { scope = "singleton", make = function() return { user = c:provider("table#user")() } end },
              register "table#declared" { deps = { user = provider "table#user" }, make = function(d) return { user = d.user() } end },
            }
            c = container "app"
            local session = c:openScope "session"
            local failed = select(2, pcall(c.resolve, c, "table#cache"))
            return tostring(failed):match("resolved table#user through a container, but does not declare it") ~= nil,
                   session:resolve("table#declared").user.name
            """, name: "provider.lua")
        #expect(result == [true, "ana"])
    }

    /// A finalizer the collector runs during some factory's make resolves
    /// as nobody's dependency: the factory still builds.
    @Test func aFinalizerResolvingDuringAFactoryIsNotTheFactorys() throws {
        let host = try makeHost()
        let result = try host.run("""
            local c
            configuration "app" {
              register "table#log" { scope = "singleton", make = function() return { n = 0 } end },
              register "table#report" { make = function() collectgarbage() collectgarbage() return { built = true } end },
            }
            c = container "app"
            setmetatable({}, { __gc = function() local log = c:resolve "table#log" log.n = log.n + 1 end })
            local report = c:resolve "table#report"
            return report.built, c:resolve("table#log").n
            """, name: "gc.lua")
        #expect(result == [true, 1])
    }

    /// A __tostring that raises does not replace the value a factory raised.
    @Test func aRaisingToStringKeepsTheCause() throws {
        let host = try makeHost()
        let result = try host.run("""
            configuration "app" { register "table#b" { make = function()
              error(setmetatable({ code = 8 }, { __tostring = function() error("ts boom") end }))
            end } }
            local c = container "app"
            local ok, e = pcall(c.resolve, c, "table#b")
            return type(e), e.cause.code
            """, name: "tostring.lua")
        #expect(result == ["table", 8])
    }

    /// DOT labels escape what a key may hold (a backslash ended the string).
    @Test func dotLabelsEscapeBackslashesAndQuotes() throws {
        let host = try makeHost()
        _ = try host.run(#"configuration "app" { register "table#a\\\"b" { make = function() return {} end } }"#, name: "dot.lua")
        let dot = try host.registry.graph(of: "app").renderDOT()
        #expect(dot.contains(#"[label="table#a\\\"b\ntransient\ndot.lua:1"]"#), "\(dot)")
    }
}
