import Foundation
@testable import FactoryScripting
import FactoryRegistry
import LuaBridge
import Testing

/// Configuration values: declared by scripts, given by defaults, values
/// files, environment variables and --set (later winning), converted to
/// their declared type, injected through deps, and checked.
@Suite("Configuration values")
struct ConfigurationValuesTests {
    private func script(env: String) -> String {
        """
        value "url" { type = "string", default = "fixture://default", env = "\(env)" }
        value "retries" { type = "integer", default = 3 }
        value "ratio" { type = "number", default = 0.5 }
        value "verbose" { type = "boolean", default = false }
        value "key" { type = "string" }
        configuration "app" {
          register "table#client" {
            deps = { url = value "url", retries = value "retries", ratio = value "ratio", verbose = value "verbose" },
            make = function(d) return d end },
          register "table#secure" { deps = { key = value "key" }, make = function(d) return d end },
        }
        """
    }

    private func envName() -> String { "FH_TEST_VALUE_\(UInt32.random(in: 0...UInt32.max))" }

    private func client(_ host: FactoryHost) throws -> [LuaValue] {
        try host.run("""
            local d = container("app"):resolve "table#client"
            return d.url, d.retries, d.ratio, d.verbose
            """, name: "use.lua")
    }

    @Test func defaultsThenFilesThenEnvironmentThenSet() throws {
        let env = envName()
        let host = try makeHost()
        try host.run(script(env: env), name: "app.lua")
        #expect(try client(host) == ["fixture://default", 3, 0.5, false])
        let file = try writeScript("return { url = 'fixture://file', retries = 5, verbose = true }", name: "values.lua")
        try host.values.addFile(file)
        #expect(try client(host) == ["fixture://file", 5, 0.5, true])
        setenv(env, "fixture://env", 1)
        defer { unsetenv(env) }
        #expect(try client(host) == ["fixture://env", 5, 0.5, true])
        try host.values.set(assignment: "url=fixture://set")
        try host.values.set(assignment: "ratio=2")
        try host.values.set(assignment: "verbose=no")
        #expect(try client(host) == ["fixture://set", 5, 2.0, false])
        try host.values.set(assignment: "url=")     // the empty text is a value too
        #expect(try client(host)[0] == "")
    }

    @Test func aSandboxReadsNoEnvironmentVariable() throws {
        let env = envName()
        let host = try makeHost()
        host.values.readsEnvironment = false
        try host.run(script(env: env), name: "app.lua")
        setenv(env, "fixture://env", 1)
        defer { unsetenv(env) }
        #expect(try client(host)[0] == "fixture://default")
    }

    @Test(arguments: [
        ("retries=x", "value 'retries' from --set retries: \"x\" is not an integer"),
        ("retries=1.5", "value 'retries' from --set retries: \"1.5\" is not an integer"),
        ("ratio=inf", "value 'ratio' from --set ratio: \"inf\" is not a number"),
        ("ratio=nan", "value 'ratio' from --set ratio: \"nan\" is not a number"),
        ("verbose=maybe", "value 'verbose' from --set verbose: \"maybe\" is not a boolean"),
        // Spaces only are no number, and text is trimmed by bytes (by characters, 10 MB took 8 s: attack 12).
        ("retries=   ", "value 'retries' from --set retries: \"   \" is not an integer"),
        ("ratio=" + String(repeating: "9", count: 2_000_000) + "z", "value 'ratio' from --set ratio: \"" + String(repeating: "9", count: 57) + "...\" is not a number"),
    ])
    func wrongTextSaysWhichSourceGaveIt(assignment: String, expected: String) throws {
        let host = try makeHost()
        try host.run(script(env: envName()), name: "app.lua")
        try host.values.set(assignment: assignment)
        let text = message { _ = try client(host) }
        #expect(text.contains(expected), "\(text)")
        #expect(try host.check().map(\.message).contains(expected))
    }

    /// Text is trimmed of spaces before it is read as a number or a flag.
    @Test func textWithSpacesAroundReads() throws {
        let host = try makeHost()
        try host.run(script(env: envName()), name: "app.lua")
        for assignment in ["retries= 0x1F ", "ratio=  2.5 ", "verbose=  yes  "] { try host.values.set(assignment: assignment) }
        let values = try client(host)
        #expect(values[1] == .integer(31) && values[2] == .number(2.5) && values[3] == .boolean(true), "\(values)")
    }

    @Test func checkReportsUnsetMistypedAndUndeclaredValues() throws {
        let host = try makeHost()
        try host.run(script(env: envName()), name: "app.lua")
        try host.values.set(assignment: "retires=4")
        let problems = try host.check().map { "\($0.message) | \($0.details.joined(separator: "; "))" }
        #expect(problems.contains("value 'key' is not set: give it with --set key=…, in a values file (--values), or a default | used by table#secure (app.lua:10)"),
                "\(problems)")
        #expect(problems.contains("--set retires gives 'retires', which no script declares, did you mean 'retries'? | "), "\(problems)")
        #expect(problems.count == 2, "\(problems)")
    }

    @Test(arguments: [
        ("value 'x' { type = 'string', defualt = 'a' }", "value 'x' (bad.lua:1): unknown field 'defualt' (fields: type, default, env)"),
        ("value 'x' { type = 'text' }", "value 'x' (bad.lua:1): 'type' must be one of string, integer, number, boolean"),
        ("value 'x' { type = 'integer', default = 'three' }", "value 'x' (bad.lua:1): the default \"three\" is not an integer"),
        ("value 'x' { type = 'string', default = {} }", "value 'x' (bad.lua:1): the default must be a string (got table)"),
        ("value 'x' { type = 'string', env = 'A=B' }", "value 'x' (bad.lua:1): 'env' names an environment variable"),
        ("value 'x' { type = 'string' } value 'x' { type = 'integer' }",
         "value 'x' (bad.lua:1): declared twice, differently: string at bad.lua:1, and integer here"),
        ("value '1x' { type = 'string' }", "value: '1x' is no value name"),
        ("value 'a b' { type = 'string' }", "value: 'a b' is no value name"),
        ("value 'x' (3)", "bad argument #1 to 'value \"x\"' (table (value \"x\" { type = \"string\" }) expected, got integer)"),
        ("values(3)", "bad argument #1 to 'values' (table expected, got integer)"),
        ("values { ['a b'] = 1 }", "'a b' is no value name"),
        ("values { x = {} }", "'x' is a table; a value is a string, number or boolean"),
        ("configuration 'app' { register 'table#t' { deps = { value 'x' }, make = print } }", "a value in deps needs a label"),
        ("value 'x' { type = 'string', default = 'a' } configuration 'app' { register 'table#t' { deps = { v = value 'y' }, make = print } } container('app'):resolve 'table#t'",
         "no value 'y' is declared"),
    ])
    func badDeclarationsAndUsesSayWhatIsWrong(code: String, expected: String) throws {
        let host = try makeHost()
        let text = message { _ = try host.run(code, name: "bad.lua") }
        #expect(text.contains(expected), "\(text)")
    }

    @Test(arguments: [
        ("return 42", "must return a table of names to values"),
        ("return { [1] = 'x' }", "a name must be a string (got integer)"),
        ("return { url = {} }", "'url' is a table; a value is a string, number or boolean"),
        ("return { ['bad name'] = 1 }", "'bad name' is no value name"),
        ("os.exit(3)", "attempt to call a nil value"),
        ("while true do end", "time limit exceeded"),
        ("return {", "values file"),
    ])
    func badValuesFilesSayWhatIsWrong(text: String, expected: String) throws {
        let host = try makeHost()
        let file = try writeScript(text, name: "values.lua")
        let error = message { try host.values.addFile(file) }
        #expect(error.contains(expected), "\(error)")
    }

    @Test func aMissingValuesFileIsAnError() throws {
        let host = try makeHost()
        #expect(message { try host.values.addFile("/nonexistent/values.lua") }.contains("values file /nonexistent/values.lua: cannot open"))
    }

    /// Fixes after an attack (each failed before).
    @Test func conversionsFollowLuasOwnReadings() throws {
        let host = try makeHost()
        try host.run(script(env: envName()), name: "app.lua")
        try host.values.set(assignment: "retries=0x10")
        try host.values.set(assignment: "verbose= true ")
        #expect(try client(host)[1] == 16 && client(host)[3] == true)
        let file = try writeScript("return { retries = 5.0 }", name: "values.lua")
        let other = try makeHost()
        try other.run(script(env: envName()), name: "app.lua")
        try other.values.addFile(file)
        #expect(try client(other)[1] == 5)
        // 3 and 3.0 are one default.
        _ = try other.run("value 'retries' { type = 'integer', default = 3.0 }", name: "again.lua")
    }

    @Test(arguments: [".", "..", "a..b", ".a", "a.", String(repeating: "x", count: 201)])
    func oddNamesAreRefused(name: String) throws {
        let host = try makeHost()
        #expect(message { try host.values.set(name, to: "1") }.contains("is no value name"))
    }

    @Test func anEnvironmentVariableNameWithANulIsRefused() throws {
        let host = try makeHost()
        let text = message { _ = try host.run("value 'x' { type = 'string', env = 'A\\0B' }", name: "env.lua") }
        #expect(text.contains("'env' names an environment variable"), "\(text)")
    }
}

