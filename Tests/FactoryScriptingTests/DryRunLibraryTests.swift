import FactoryRegistry
import Foundation
@testable import FactoryScripting
import LuaBridge
import Testing

/// check's dry run (CDryRun): every function that would change something
/// outside the process stops the run at its caller's line, saying what it
/// would have done; what only reads keeps working; bytecode stays out.
@Suite("The dry run's replacements")
struct DryRunLibraryTests {
    /// Declares `body` (after a first line that declares a configuration)
    /// and returns how the run ended.
    private func declare(_ body: String, name: String = "script.lua") throws -> DeclarationRun {
        let host = try makeHost()
        let path = try writeScript("configuration \"app\" {}\n" + body, name: name)
        return host.declare(file: path)
    }

    /// `string.format("%q", text)` as Lua itself formats it.
    private func luaQuoted(_ text: String) throws -> String {
        let lua = try LuaState()
        let format = try lua.load("return string.format('%q', ...)", name: "q")
        guard case .string(let quoted)? = try format.call(LuaValue(text)).first else { return "" }
        return quoted.description
    }

    @Test(arguments: [
        ("io.open('out.txt', 'w')", "io.open(\"out.txt\", \"w\") would write a file"),
        ("io.open('out.txt', 'r+')", "io.open(\"out.txt\", \"r+\") would write a file"),
        ("io.open('log', 'ab')", "io.open(\"log\", \"ab\") would write a file"),
        ("io.open(nil, 'w')", "io.open(\"nil\", \"w\") would write a file"),
        ("io.output('out.txt')", "io.output(\"out.txt\") would write a file"),
        ("io.popen('ls')", "io.popen would start a process"),
        ("io.tmpfile()", "io.tmpfile would create a file"),
        ("os.remove('x')", "os.remove would remove a file"),
        ("os.rename('x', 'y')", "os.rename would rename a file"),
        ("os.tmpname()", "os.tmpname would create a file"),
        ("os.execute('true')", "os.execute would start a process"),
        ("os.exit()", "the script called os.exit()"),
        ("os.exit(3)", "the script called os.exit(3)"),
        ("os.exit(true)", "the script called os.exit(true)"),
        ("package.loadlib('x.so', 'f')", "package.loadlib would load native code"),
        ("pcall(os.execute, 'true')", "os.execute would start a process"),
        ("local f = function() return os.tmpname() end f()", "os.tmpname would create a file"),
    ])
    func aSideEffectStopsAtItsLine(call: String, reason: String) throws {
        let run = try declare("local x = 1\n" + call + "\nerror('the run went on')\n")
        #expect(run.error == nil, "\(String(describing: run.error))")
        #expect(run.stop?.reason == .sideEffect)
        #expect(run.stop?.message == reason)
        #expect(run.stop?.origin?.line == 3, "\(String(describing: run.stop))")
    }

    /// File names and modes are quoted exactly as string.format's %q quotes them.
    @Test func namesAreQuotedAsLuaQuotesThem() throws {
        for name in ["plain", "quote\"d", "back\\slash", "new\nline", "cr\rhere", "nul\u{0}in", "\u{1}2digit", "\u{7F}del", "été"] {
            let literal = name.unicodeScalars.map { "\\u{\(String($0.value, radix: 16))}" }.joined()
            let run = try declare("io.open(\"\(literal)\", \"w\")\n")
            #expect(run.stop?.message == "io.open(\(try luaQuoted(name)), \"w\") would write a file", "\(name)")
        }
    }

    /// A C module on package.cpath stops the run before it loads — by its
    /// own name, and (the all-in-one searcher) by its root's.
    @Test func nativeModulesStopBeforeTheyLoad() throws {
        let directory = "/tmp/fh-dryrun-\(UInt64.random(in: 0...UInt64.max))"
        try host_write(directory + "/native.so", "not a library")
        try host_write(directory + "/root.so", "not a library")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (module, file) in [("native", "native.so"), ("root.sub", "root.so")] {
            let run = try declare("package.cpath = '\(directory)/?.so'\nrequire '\(module)'\n")
            #expect(run.stop?.message == "require \"\(module)\" would load native code (\(directory)/\(file))", "\(run)")
            #expect(run.stop?.origin?.line == 3)
        }
        // A module on neither path is Lua's own "not found" error, not a stop.
        let missing = try declare("package.cpath = '\(directory)/?.so'\nrequire 'absent'\n")
        #expect(missing.stop == nil)
        #expect(missing.error.map { "\($0)" }?.contains("module 'absent' not found") == true)
    }

    /// Reading goes on as under `run`; binary chunks are refused by load,
    /// loadfile and dofile; debug only reads stacks.
    @Test func whatOnlyReadsStillWorks() throws {
        let directory = "/tmp/fh-dryrun-\(UInt64.random(in: 0...UInt64.max))"
        try host_write(directory + "/data.txt", "hello")
        try host_write(directory + "/values.lua", "return 1, 2, ...")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let binary = directory + "/binary.luac"
        let lua = try LuaState()
        _ = try lua.run("local f = io.open('\(binary)', 'wb') f:write(string.dump(function() end)) f:close()", name: "w")
        let run = try declare("""
            local function check(ok, what) if not ok then error(what, 2) end end
            local f = assert(io.open('\(directory)/data.txt'))
            check(f:read('a') == 'hello', 'read')
            f:close()
            check(io.open('\(directory)/data.txt', 'rb') ~= nil, 'rb')
            check(load('return 40 + 2')() == 42, 'text load')
            local chunk, message = load(string.dump(function() end), 'dump', 'b')
            check(chunk == nil and message:find('attempt to load a binary chunk'), 'load of bytecode: ' .. tostring(message))
            local chunk2, message2 = loadfile('\(binary)', 'bt')
            check(chunk2 == nil and message2:find('attempt to load a binary chunk'), 'loadfile of bytecode')
            local ok, err = pcall(dofile, '\(binary)')
            check(not ok and err:find('attempt to load a binary chunk'), 'dofile of bytecode: ' .. tostring(err))
            local a, b, c = dofile('\(directory)/values.lua')
            check(a == 1 and b == 2 and c == nil, 'dofile results')
            local ok2, err2 = pcall(function() dofile('\(directory)/absent.lua') end)
            check(not ok2 and err2:find('script.lua:16: cannot open'), 'dofile place: ' .. tostring(err2))
            local names = {}
            for name in pairs(debug) do names[#names + 1] = name end
            table.sort(names)
            check(table.concat(names, ',') == 'getinfo,traceback', 'debug: ' .. table.concat(names, ','))
            check(package.loaded.debug == debug, 'package.loaded.debug')
            check(io.output() == io.stdout and io.output(io.stdout) == io.stdout, 'io.output of a file handle')
            """)
        #expect(run.error == nil, "\(String(describing: run.error))")
        #expect(run.stop == nil, "\(String(describing: run.stop))")
    }

    /// A plugin module's stopped copy: every function, however deep, stops
    /// with its path; other values and shared or cyclic tables are kept.
    @Test func aStoppedModuleStopsInEveryFunction() throws {
        let host = try makeHost()
        try host.beginDryRun()
        let stopped = try #require(host.checkSession?.stoppedModule)
        let module = try #require(try host.lua.run("""
            local m = { n = 1, s = "x", inner = { deeper = { f = function() end } }, g = function() end }
            m.again = m.inner
            m.self = m
            return m
            """, name: "module").first)
        guard case .table(let copy)? = try stopped.call(module, LuaValue("reaches the moon")).first else {
            Issue.record("no copy")
            return
        }
        let probe = try host.lua.load("""
            local copy = ...
            assert(copy.n == 1 and copy.s == "x" and copy.self == copy and copy.again == copy.inner)
            return copy.inner.deeper.f, copy.g
            """, name: "probe")
        let functions = try probe.call(.table(copy))
        #expect(functions.count == 2)
        let messages = functions.map { function in
            message { if case .function(let f) = function { _ = try f.call() } }
        }
        // The path is the one the copy first came to (m.inner and m.again are one table).
        #expect(messages[0].hasSuffix("inner.deeper.f: reaches the moon, which check never does")
                || messages[0].hasSuffix("again.deeper.f: reaches the moon, which check never does"), "\(messages[0])")
        #expect(messages[1].hasSuffix("g: reaches the moon, which check never does"), "\(messages[1])")
        // A module nested past any real one is refused, not a C stack overflow.
        let deep = try host.lua.run("local t = {} for i = 1, 1000 do t = { t } end return t", name: "deep")
        #expect(message { _ = try stopped.call(deep[0], LuaValue("x")) }.contains("nests tables more than 64 deep"))
    }
}

/// A dry run keeps no factories: nothing it declares is ever built. It keeps
/// each `make` all the same, so the script runs as under `run`: no finalizer of
/// a captured value runs mid-script, and weak tables see the same.
@Suite("A dry run keeps no factories, and keeps make")
struct DryRunFactoryTests {
    @Test func makeIsKeptAndBuildingSaysWhy() throws {
        let host = try makeHost()
        let path = try writeScript("""
            local weak = setmetatable({}, { __mode = "v" })
            local make = function() return {} end
            weak[1] = make
            configuration "app" { register "table#x" { make = make } }
            make = nil
            collectgarbage(); collectgarbage()
            kept = weak[1] ~= nil
            """)
        let run = host.declare(file: path)
        #expect(run.error == nil, "\(String(describing: run.error))")
        #expect(try host.lua.global("kept") == .boolean(true))
        // An embedder who builds from the dry run's registry anyway is told why.
        let container = try host.registry.container("app")
        #expect {
            _ = try container.resolveAny(ServiceKey(host.types.type(named: "table").serviceType, name: "x"))
        } throws: { error in
            "\(error)".contains("declared during a dry run (check or graph), which keeps no factories")
        }
    }

    /// A finalizer of what a factory captured does not run while the script
    /// runs (it would stop the dry run at its side effect).
    @Test func capturedFinalizersDoNotRunMidScript() throws {
        let host = try makeHost()
        let path = try writeScript("""
            local function withLog(path)
              local handle = setmetatable({}, { __gc = function() os.remove(path) end })
              return function() return { handle = handle } end
            end
            configuration "app" { register "table#logger" { scope = "singleton", make = withLog("/nonexistent/app.log") } }
            local big = {}
            for i = 1, 200000 do big[i] = { i } end
            collectgarbage(); collectgarbage()
            configuration "later" { register "table#x" { make = function() return {} end } }
            """)
        let run = host.declare(file: path)
        #expect(run.error == nil, "\(String(describing: run.error))")
        #expect(run.stop == nil, "\(String(describing: run.stop))")
        #expect(run.unreached.isEmpty, "\(run.unreached)")
    }

    /// Declarations made inside coroutines are read (and their `make`
    /// kept) from the coroutine's own stack, under check as under run.
    @Test func declarationsInCoroutinesAreRead() throws {
        let source = """
            local co = coroutine.wrap(function()
              configuration "co" { register "table#a" { deps = { b = "table#b" }, make = function(d) return {} end } }
              coroutine.yield()
              configuration "co" { register "table#b" { make = function() return {} end } }
            end)
            co(); co()
            """
        let host = try makeHost()
        let run = host.declare(file: try writeScript(source))
        #expect(run.error == nil && run.unreached.isEmpty, "\(String(describing: run.error)) \(run.unreached)")
        #expect(try host.check().isEmpty)
        #expect(host.registry.configuration("co")?.registrations.map(\.key.description) == ["table#a", "table#b"])
        let live = try makeHost()
        try live.run(source + "\nassert(container('co'):resolve('table#a'))", name: "co.lua")
    }

    /// A large source (scanned on a thread of its own while Lua runs it)
    /// is scanned whole: what a stop leaves unreached at its end is found,
    /// at its line, as in a small one.
    @Test func aLargeSourceIsScannedWhole() throws {
        let filler = (1...3000).map { "filler = \"\($0)\" -- \(String(repeating: "x", count: 20))" }.joined(separator: "\n")
        let script = "configuration \"app\" { }\n" + filler + "\nlocal c = container \"app\"\nconfiguration \"late\" { }\nscope \"never\"\n"
        #expect(script.utf8.count >= FactoryHost.backgroundScanSize)
        let host = try makeHost()
        let run = host.declare(file: try writeScript(script))
        #expect(run.stop?.reason == .container)
        #expect(run.unreached.map { "\($0.origin.line) \($0.declaration)" } == ["3003 configuration \"late\"", "3004 scope \"never\""],
                "\(run.unreached)")
    }

    /// After a stop, check reports a declaring function called as it was
    /// defined (`setup(…)`, `M.setup(…)`), not a call that only shares its
    /// name (`obj.setup()`, `string.format`), and not a function that only
    /// shares its name with one that declares.
    @Test func callsAfterAStopAreMatchedAsDefined() throws {
        let host = try makeHost()
        let path = try writeScript("""
            local M = {}
            local function setup() configuration "app" { register "table" { make = function() return {} end } } end
            function M.format(n) configuration(n) { } end
            local other = { setup = function() return 1 end }
            setup()
            M.format("early")
            local c = container "app"
            local obj = { setup = function() end }
            obj.setup(); obj:setup(); other.setup()
            local s = string.format("%d", 1) .. ("x"):format()
            M.format("late")
            setup()
            """)
        let run = host.declare(file: path)
        #expect(run.stop?.reason == .container)
        #expect(run.unreached.map { "\($0.origin.line) \($0.declaration.prefix { $0 != "(" })" } == ["12 setup", "11 format"],
                "\(run.unreached)")
    }

    /// A function a required module declares with, called after a stop
    /// through the name the module is bound to, is reported (check said ok).
    @Test func aModulesDeclaringFunctionCalledAfterAStopIsReported() throws {
        let host = try makeHost()
        let path = try writeScript("""
            local m = require "declaring_module"
            local other = require("declaring_module")
            m.setup "a"
            local c = container "a"
            m.setup "b"
            other.helper()
            """)
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        try host_write(directory + "/declaring_module.lua", """
            local M = {}
            function M.setup(name)
              configuration(name) { register "table" { make = function() return {} end } }
            end
            function M.helper() return 1 end
            return M
            """)
        let run = host.declare(file: path)
        #expect(run.stop?.reason == .container)
        #expect(run.unreached.map { "\($0.origin.line) \($0.declaration.prefix { $0 != "(" })" } == ["5 m.setup"], "\(run.unreached)")
        #expect(run.unreached.first?.declaration.contains("declaring_module.lua:2") == true)
    }

    /// Outside a dry run the same script's factory is kept and builds.
    @Test func aRunKeepsMake() throws {
        let host = try makeHost()
        try host.run("""
            local weak = setmetatable({}, { __mode = "v" })
            local make = function() return { built = true } end
            weak[1] = make
            configuration "app" { register "table#x" { make = make } }
            make = nil
            collectgarbage(); collectgarbage()
            assert(weak[1] ~= nil, "the factory's make was collected")
            assert(container("app"):resolve("table#x").built)
            """, name: "run.lua")
    }
}
