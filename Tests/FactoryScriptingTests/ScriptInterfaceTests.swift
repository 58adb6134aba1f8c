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
        let problems = host.check().map { "\($0.kind): \($0.message)" }
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
