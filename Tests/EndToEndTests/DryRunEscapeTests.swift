import Foundation
import Testing

/// Ways out of check's dry run that an attack found, each closed: the run
/// must stop (or fail) without writing a file, loading bytecode or native
/// code, and without saying ok for what it did not see.
@Suite("check's dry run cannot be left")
struct DryRunEscapeTests {
    private let header = #"configuration "app" { register "table#a" { make = function() return {} end } }"#

    private func check(_ body: String, in dir: URL) throws -> ProcessResult {
        try CommandRunner.factoryhost(["check", "-"], in: dir, input: header + "\n" + body, killAfter: 30)
    }

    private func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fh-escape-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// io.output takes a number as a file name: anything but nothing or an
    /// open file stops the run.
    @Test func ioOutputOfANumberStops() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try check("io.output(123) io.write('x') io.close()", in: dir)
        #expect(result.stdout.contains(#"(check stopped at stdin:2: io.output("123") would write a file"#), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("123").path))
    }

    /// The function one level up from a load reader (or a metamethod of
    /// `package`) is a stock function the dry run replaced: getinfo does
    /// not hand functions out, and counts levels as the script sees them.
    @Test func getinfoNeverHandsOutTheReplacedFunctions() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try check("""
            local orig, n = nil, 0
            load(function() n = n + 1; if n == 1 then orig = debug.getinfo(2, "f").func; return "return 1" end end)
            local function here() return debug.getinfo(1, "l").currentline, debug.getinfo(2, "l").currentline,
              debug.getinfo(1.0, "l").currentline, debug.getinfo("1", "l").currentline end
            local inner, outer, float, text = here()
            io.stderr:write(tostring(orig), " ", tostring(debug.getinfo(1).func), " ", inner, " ", outer, " ", float, " ", text,
              " ", tostring(debug.getinfo(math.maxinteger)), "\\n")
            """, in: dir)
        #expect(result.stderr == "nil nil 4 6 5 5 nil\n", "\(result)")   // (the 1.0 and "1" calls are on line 5)
    }

    /// The C searchers are never called: they would read package.cpath again,
    /// and a script's __index could give them another path than the check saw.
    @Test func cSearchersCannotBeGivenAnotherPath() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("not a library".utf8).write(to: dir.appendingPathComponent("evil.so"))
        let result = try check("""
            package.cpath = nil
            local reads = 0
            setmetatable(package, { __index = function(t, k)
              if k == "cpath" then reads = reads + 1; return reads == 1 and "/nonexistent/?.so" or "\(dir.path)/?.so" end
            end })
            local ok, message = pcall(require, "evil")
            io.stderr:write(message, "\\n")
            """, in: dir)
        #expect(result.stderr.contains("module 'evil' not found"), "\(result)")
        #expect(!result.stderr.contains("error loading module"), "the stock C searcher ran: \(result)")
    }

    /// `require` loads modules as text only, like load, loadfile and dofile.
    @Test func requireRefusesPrecompiledModules() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Compiled by factoryhost run itself (trusted: string.dump is there), not a second interpreter.
        let compiled = try CommandRunner.factoryhost(["run", "-"], in: dir, input: """
            local f = io.open('\(dir.path)/compiled.lua', 'wb') f:write(string.dump(load('io.stderr:write("bytecode ran")'))) f:close()
            """, killAfter: 30)
        #expect(compiled.status == 0, "\(compiled)")
        let result = try check("""
            package.path = "\(dir.path)/?.lua;" .. package.path
            local ok, message = pcall(require, "compiled")
            io.stderr:write(tostring(ok), " ", message, "\\n")
            """, in: dir)
        #expect(!result.stderr.contains("bytecode ran"), "\(result)")
        #expect(result.stderr.contains("error loading module 'compiled' from file"), "\(result)")
        #expect(result.stderr.contains("attempt to load a binary chunk (mode is 't')"), "\(result)")
    }

    /// A stop cannot be turned into a catchable error by a __tostring that
    /// raises (the stop's message reads no metamethod).
    @Test func aRaisingToStringCannotCatchTheStop() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try check("""
            local t = setmetatable({}, { __tostring = function() error("boom") end })
            local ok = pcall(io.open, t, "w")
            io.stderr:write("the script went on\\n")
            """, in: dir)
        #expect(!result.stderr.contains("the script went on"), "\(result)")
        #expect(result.stdout.contains(#"io.open("table: 0x"#), "\(result)")
    }

    /// The replaced functions' own argument errors name them and the place.
    @Test func argumentErrorsNameTheFunctionAndThePlace() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (call, expected) in [("io.open({}, 'r')", "stdin:2: bad argument #1 to 'open' (string expected, got table)"),
                                 ("dofile({})", "stdin:2: bad argument #1 to 'dofile' (string expected, got table)"),
                                 ("load(nil)", "stdin:2: bad argument #1 to 'load' (function expected, got nil)")] {
            let result = try check(call, in: dir)
            #expect(result.stdout.hasPrefix(expected + "\n"), "\(call): \(result)")
        }
    }

    /// `rawget(_G, "configuration")` is a use the scan cannot follow: check
    /// says so instead of ok; a table field named `scope` is no use at all.
    @Test func theScanKnowsRawgetAndFieldNames() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let hidden = try check("""
            os.remove("x")
            local C = rawget(_G, "configuration")
            C "late" { register "table#b" { make = print } }
            """, in: dir)
        #expect(hidden.status == 1 && hidden.stdout.contains("stdin:3: configuration reached by rawget was not checked"), "\(hidden)")
        let fields = try check("""
            local c = container "app"
            local options = { scope = "x", configuration = "y" }
            """, in: dir)
        #expect(fields.status == 0 && fields.stdout.hasPrefix("ok:"), "\(fields)")
    }

    /// A body that failed in a helper is "its body failed"; a syntax error
    /// is the one problem (nothing ran).
    @Test func failuresAreReportedForWhatTheyAre() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let helper = try CommandRunner.factoryhost(["check", "-"], in: dir, input: """
            local function helper() error("in helper") end
            configuration "one" { register "table#a" { make = print }, helper(), }
            """, killAfter: 30)
        #expect(helper.stdout == """
            stdin:1: in helper
            stdin:2: configuration "one" was not checked
              its body failed, at stdin:1: in helper
              fix that error: nothing in the configuration was checked
            2 problems in 0 configurations, 0 registrations

            """, "\(helper)")
        let syntax = try CommandRunner.factoryhost(["check", "-"], in: dir, input: "configuration \"a\" {}\nx = = 1\n", killAfter: 30)
        #expect(syntax.stdout == "stdin:2: unexpected symbol near '='\n1 problem in 0 configurations, 0 registrations\n", "\(syntax)")
    }

    /// A path that is not a string is Lua's own error, from the guarded searchers too.
    @Test func searchPathsMustBeStrings() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (field, module) in [("path", "absent"), ("cpath", "absent.sub")] {
            let result = try check("""
                package.\(field) = 42
                local ok, message = pcall(require, "\(module)")
                io.stderr:write(message, "\\n")
                """, in: dir)
            #expect(result.stderr.contains("'package.\(field)' must be a string"), "\(field): \(result)")
        }
    }
}

