import Foundation
import Testing

/// `factoryhost check` and `graph` never report ok for what they did not
/// see, and run scripts without side effects (issue #13).
@Suite("factoryhost check is honest")
struct HonestCheckTests {
    let fixtures = CommandRunner.fixtures.appendingPathComponent("check")

    /// A scratch copy of the fixtures, so side effects (if any) land nowhere shared.
    private func scratchCopy() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fh-check-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: fixtures, to: dir)
        return dir
    }

    @Test func theStopCannotBeCaughtAndNothingRunsAfterIt() throws {
        let dir = try scratchCopy()
        defer { try? FileManager.default.removeItem(at: dir) }
        let victim = dir.appendingPathComponent("victim.txt")
        try Data("keep me".utf8).write(to: victim)
        // xpcall(main, handler): the handler would remove a file, write one and os.exit(2).
        let handler = try CommandRunner.factoryhost(["check", "handler.lua", victim.path], in: dir, killAfter: 30)
        #expect(handler == ProcessResult(status: 0, stdout: "ok: 1 configuration, 1 registration, no problems\n", stderr: ""),
                "\(handler)")
        #expect(FileManager.default.fileExists(atPath: victim.path), "the handler ran")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("written.txt").path), "the handler ran")
        // A __close and a __gc that would os.exit, and an os.exit after a swallowed stop.
        let finalizers = try CommandRunner.factoryhost(["check", "finalizers.lua"], in: dir, killAfter: 30)
        #expect(finalizers == ProcessResult(status: 0, stdout: "ok: 1 configuration, 1 registration, no problems\n", stderr: ""),
                "\(finalizers)")
        // graph too: it once closed the state after drawing, which ran the
        // __gc — printing into the graph and picking the exit status.
        let graph = try CommandRunner.factoryhost(["graph", "--config", "app", "finalizers.lua"], in: dir, killAfter: 30)
        #expect(graph == ProcessResult(status: 0, stdout: "table#x [transient] finalizers.lua:2\n", stderr: ""), "\(graph)")
    }

    @Test func theRealFunctionsAreOutOfReachAndNoFinalizerRuns() throws {
        let dir = try scratchCopy()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.factoryhost(["check", "--format", "json", "escape.lua"], in: dir, killAfter: 30)
        #expect(result.status == 1, "the finalizer picked the status: \(result)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("escaped.txt").path), "\(result)")
        #expect(!result.stdout.contains("a finalizer ran"), "\(result)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
        #expect((object["problems"] as? [[String: Any]])?.first?["message"] as? String == "configuration \"late\" was not checked")
    }

    /// A plugin that reaches outside the process gets a stopped copy in the
    /// dry run; its classes must be as strict as the real ones, or check
    /// says ok to a typo run fails on.
    @Test func aTypoInAStoppedPluginClassFailsCheckAsItFailsRun() throws {
        let script = """
            local net = require "factoryhost.networking"
            configuration "app" { register "Cache" { make = function() return net.Cache.new() end } }
            local helper = net.Cache.nwe
            """
        let expected = "class 'Cache' has no member 'nwe', did you mean 'new'? (members: new, typeName)"
        let run = try CommandRunner.factoryhost(["run", "-"], in: fixtures, input: script, killAfter: 30)
        #expect(run.status == 1 && run.stderr.hasPrefix("factoryhost: stdin:3: " + expected), "\(run)")
        let check = try CommandRunner.factoryhost(["check", "-"], in: fixtures, input: script, killAfter: 30)
        #expect(check.status == 1 && check.stdout.hasPrefix("stdin:3: " + expected), "\(check)")
    }

    /// A declaration that fails is a problem at its line, and check goes on: the
    /// configuration holding it and those after it are checked (they were "not
    /// checked", each repeating the error); what the script never ran is still said.
    @Test func aBadDeclarationIsOneProblemAndCheckGoesOn() throws {
        let script = """
            if os.time() < 0 then configuration "never" {} end
            configuration "app" {
              register "table#x" { bogus = 1, make = function() return {} end },
              register "table#y" { deps = { x = "table#x" }, make = function() return {} end },
            }
            configuration "late" { register "table#z" { deps = { w = "table#w" }, make = function() return {} end } }
            """
        let result = try CommandRunner.factoryhost(["check", "-"], in: fixtures, input: script, killAfter: 30)
        #expect(result == ProcessResult(status: 1, stdout: """
            stdin:1: configuration "never" was not checked
              the script never ran it (it is in a function never called, or a branch not taken)
              check sees what the script runs: declare it unconditionally, at the top level of the script or of a module it requires
            stdin:3: register "table#x": unknown field 'bogus' (fields: args, assisted, deps, eager, into, key, make, name, override, params, scope)
            stdin:6: no registration for table#w in configuration 'late'
              required by table#z as w: table#w
              table#z registered at stdin:6
            3 problems in 2 configurations, 3 registrations

            """, stderr: ""), "\(result)")
        // run still stops at the first, naming its place once.
        let run = try CommandRunner.factoryhost(["run", "-"], in: fixtures, input: script, killAfter: 30)
        #expect(run.status == 1 && run.stderr.hasPrefix(#"factoryhost: stdin:3: register "table#x": unknown field 'bogus'"#), "\(run)")
    }

    /// A missing dependency is reported at the line naming it inside a
    /// multi-line `deps` (it was the `register` line), with the registration's
    /// line in the details; problems come in line order. A key the source does
    /// not spell out (built by code) stays at the registration.
    @Test func aMissingDependencyPointsAtTheLineNamingIt() throws {
        let script = """
            configuration "app" {
              register "table#Cart" {
                deps = {
                  clock = "table#Clokc",
                  tax = "table#Tax" .. "es",
                },
                make = function(d) return {} end,
              },
              register "Nope" { make = function() return {} end },
            }
            """
        let result = try CommandRunner.factoryhost(["check", "-"], in: fixtures, input: script, killAfter: 30)
        #expect(result == ProcessResult(status: 1, stdout: """
            stdin:2: no registration for table#Taxes in configuration 'app'
              required by table#Cart as tax: table#Taxes
              table#Cart registered at stdin:2
            stdin:4: no registration for table#Clokc in configuration 'app'
              required by table#Cart as clock: table#Clokc
              table#Cart registered at stdin:2
            stdin:9: unknown type 'Nope'; to name a type of your own, declare it with interface "Nope" { … }, or take any table as "table#Nope"
            3 problems in 1 configuration, 1 registration

            """, stderr: ""), "\(result)")
    }

    /// Every dependency whose type is misspelled, in one registration, each at
    /// its line, in the same order every run — and what else the registration
    /// gets wrong (a value's name): one bad key hid the others, which one was
    /// reported changed from run to run (Lua's hash order), and at the
    /// `register` line. `run` names the first and how many more.
    @Test func everyMisspelledDependencyOfARegistrationIsReportedAtItsLine() throws {
        let script = """
            interface "Clock" { "now" }
            interface "Logger" { "info" }
            interface "Orders" { "place" }
            value "currency" { type = "string", default = "EUR" }
            configuration "app" {
              register "Orders" {
                deps = { clock = "Clokc",
                         log = "Loger",
                         currency = value "curency" },
                make = function(d) return {} end,
              },
            }
            """
        for _ in 0..<3 {
            let result = try CommandRunner.factoryhost(["check", "-"], in: fixtures, input: script, killAfter: 30)
            #expect(result == ProcessResult(status: 1, stdout: """
                stdin:7: register "Orders": dependency 'clock': unknown type 'Clokc', did you mean 'Clock'?
                stdin:8: register "Orders": dependency 'log': unknown type 'Loger', did you mean 'Logger'?
                stdin:9: no value 'curency' is declared, did you mean 'currency'?
                  used by Orders (stdin:6)
                3 problems in 1 configuration, 1 registration

                """, stderr: ""), "\(result)")
        }
        let run = try CommandRunner.factoryhost(["run", "-"], in: fixtures, input: script, killAfter: 30)
        #expect(run.status == 1 && run.stderr.hasPrefix(
            "factoryhost: stdin:6: register \"Orders\": dependency 'clock': unknown type 'Clokc', did you mean 'Clock'? (and 1 more bad dependency)"),
                "\(run)")
    }

    /// A cycle of `extends` is one problem naming its members (the first 20),
    /// and an unknown parent one problem at the configuration naming it:
    /// each member of a 3,000-long cycle restated the whole cycle, flattened
    /// around it (quadratic: 37 s and 2.3 GB at 4,000). graph refuses to draw
    /// a configuration whose chain is broken (it drew an empty graph, status 0).
    @Test func aBrokenExtendsIsOneProblemAndGraphRefusesIt() throws {
        let cycle = "for i = 0, 2999 do configuration (\"c\" .. i) { extends = \"c\" .. ((i + 1) % 3000) } end\n"
        let result = try CommandRunner.factoryhost(["check", "-"], in: fixtures, input: cycle, killAfter: 60)
        #expect(result.status == 1 && result.stdout.hasSuffix("1 problem in 3000 configurations, 0 registrations\n"), "\(result.stdout.prefix(2000))")
        #expect(result.stdout.hasPrefix("stdin:1: configurations extend each other in a cycle: c0 → c1 → c2 → "), "\(result.stdout.prefix(500))")
        #expect(result.stdout.contains("→ … (2980 more) → c0") && result.stdout.utf8.count < 4096, "\(result.stdout.utf8.count) bytes")
        let script = """
            configuration "x" { extends = "y" }
            configuration "y" { extends = "x", register "table#A" { make = function() return {} end } }
            configuration "z" { extends = "y" }
            configuration "w" { extends = "nope", register "table#B" { deps = { s = "table#S" }, make = function() return {} end } }
            configuration "v" { extends = "w" }
            configuration "ok" { register "table#C" { make = function() return {} end } }
            """
        let mixed = try CommandRunner.factoryhost(["check", "-"], in: fixtures, input: script, killAfter: 30)
        #expect(mixed == ProcessResult(status: 1, stdout: """
            stdin:1: configurations extend each other in a cycle: x → y → x in configuration 'x'
              'x' defined at stdin:1
              'y' defined at stdin:2
            stdin:4: configuration 'w' extends 'nope', which is not defined
              defined at stdin:4
            stdin:4: no registration for table#S in configurations 'w', 'v'
              required by table#B as s: table#S
              table#B registered at stdin:4
            3 problems in 6 configurations, 3 registrations declared (5 with inherited ones)

            """, stderr: ""), "\(mixed)")
        for (name, drawn) in [("z", false), ("v", false), ("ok", true)] {
            let graph = try CommandRunner.factoryhost(["graph", "--config", name, "-"], in: fixtures, input: script, killAfter: 30)
            #expect(graph.status == (drawn ? 0 : 1) && graph.stdout.isEmpty != drawn, "\(name): \(graph)")
        }
    }

    /// The error that stopped the script keeps its details as detail lines
    /// (keeping each problem's text on one line wrote them as a literal `\n`).
    @Test func theStoppingErrorsDetailsAreDetailLines() throws {
        let result = try CommandRunner.factoryhost(["check", "-"], in: fixtures,
                                                   input: "scope(\"s\", { within = \"nope\" })\nconfiguration \"app\" {}\n", killAfter: 30)
        #expect(result.status == 1 && result.stdout.hasPrefix("""
            stdin:1: scope 's' nests in 'nope', which is not declared
              declared at stdin:1
            stdin:2: configuration "app" was not checked

            """), "\(result)")
    }

    /// An error Lua raises without a place (C stack overflow, 300 modules
    /// requiring each other) is placed at the innermost line of its
    /// traceback: check said "C stack overflow" and nothing more.
    @Test func anErrorWithoutAPlaceIsPlacedFromItsTraceback() throws {
        var files = ["main.lua": "require \"m1\"\n", "m301.lua": "return 1\n"]
        for i in 1...300 { files["m\(i).lua"] = "require \"m\(i + 1)\"\n" }
        let dir = try CommandRunner.scratchDirectory(files, prefix: "fh-require")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.factoryhost(["check", "main.lua"], in: dir, killAfter: 30)
        #expect(result.status == 1 && result.stdout.hasPrefix("./m") && result.stdout.contains(".lua:1: C stack overflow\n"), "\(result)")
    }

    /// `container "oders"` ends what check sees, and its name is checked all
    /// the same: check said ok for a script whose run fails at that line.
    @Test func aContainerOfAnUnknownConfigurationIsAProblem() throws {
        let script = """
            configuration "orders" { register "table#Clock" { make = function() return {} end } }
            local app = container "oders"
            """
        let result = try CommandRunner.factoryhost(["check", "-"], in: fixtures, input: script, killAfter: 30)
        #expect(result == ProcessResult(status: 1, stdout: """
            stdin:2: no configuration named 'oders', did you mean 'orders'?
            1 problem in 1 configuration, 1 registration

            """, stderr: ""), "\(result)")
        let known = try CommandRunner.factoryhost(["check", "-"], in: fixtures,
                                                  input: script.replacingOccurrences(of: "\"oders\"", with: "\"orders\""), killAfter: 30)
        #expect(known.status == 0, "\(known)")
    }

    /// Every typo of every configuration at once, each once; a repeated key, an
    /// unknown field and a bad extends do not hide what follows them; a problem
    /// inherited by two configurations is one problem naming all three.
    @Test func everyProblemOfEveryConfigurationIsReportedOnce() throws {
        let script = """
            interface "Clock" { "now" }
            configuration "app" {
              register "Clock" { make = function() return { now = function() return 0 end } end },
              register "table#billing" { deps = { clock = "Clokc" }, make = function() return {} end },
              register "table#a" { deps = { b = "table#b" }, make = function() return {} end },
              register "table#b" { deps = { a = "table#a" }, make = function() return {} end },
              register "table#a" { make = function() return {} end },
            }
            configuration "app-tests" { extends = "app", register "table#fake" { scop = "singleton", make = function() end } }
            configuration "billing-tests" { extends = "ap", register "table#invoice" { deps = { clock = "Clcok" }, make = function() end } }
            """
        let result = try CommandRunner.factoryhost(["check", "-"], in: fixtures, input: script, killAfter: 30)
        #expect(result == ProcessResult(status: 1, stdout: """
            stdin:4: register "table#billing": dependency 'clock': unknown type 'Clokc', did you mean 'Clock'?
            stdin:5: dependency cycle: table#a → table#b → table#a in configurations 'app', 'app-tests'
              table#a registered at stdin:5
              table#b registered at stdin:6
            stdin:7: table#a is registered twice in configuration 'app'
              first at stdin:5
              again at stdin:7 (say it overrides to replace the first)
            stdin:9: register "table#fake": unknown field 'scop', did you mean 'scope'? (fields: args, assisted, deps, eager, into, key, make, name, override, params, scope)
            stdin:10: register "table#invoice": dependency 'clock': unknown type 'Clcok', did you mean 'Clock'?
            stdin:10: configuration 'billing-tests' extends 'ap', which is not defined, did you mean 'app'?
              defined at stdin:10
            6 problems in 3 configurations, 6 registrations declared (10 with inherited ones)

            """, stderr: ""), "\(result)")
        // A declaration the script catches on purpose is not a problem: the script expects it.
        let caught = try CommandRunner.factoryhost(["check", "-"], in: fixtures, input: """
            local ok = pcall(function() configuration "twice" { register "table#a" { make = print }, register "table#a" { make = print } } end)
            assert(not ok)
            configuration "app" { register "table#b" { make = function() return {} end } }
            """, killAfter: 30)
        #expect(caught.stdout.hasPrefix("ok: "), "\(caught)")
    }

    /// A script over a compiler limit is said as a syntax error naming
    /// the file, by run (no traceback of the load) and by check (the one
    /// thing to say, not configurations failed "at an unknown place").
    @Test func aScriptOverACompilerLimitIsASyntaxErrorNamingTheFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fh-limit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = "configuration \"app\" {}\nlocal all = {" + String(repeating: "function() end,", count: 131_072) + "}\n"
        try script.write(to: dir.appendingPathComponent("many.lua"), atomically: true, encoding: .utf8)
        let run = try CommandRunner.factoryhost(["run", "many.lua"], in: dir, killAfter: 60)
        #expect(run == ProcessResult(status: 1, stdout: "", stderr: "factoryhost: many.lua: too many functions (limit is 131071)\n"), "\(run)")
        let check = try CommandRunner.factoryhost(["check", "many.lua"], in: dir, killAfter: 60)
        #expect(check.status == 1 && check.stdout.hasPrefix("many.lua: too many functions (limit is 131071)\n")
                && !check.stdout.contains("unknown place"), "\(check)")
    }

    @Test func declarationsTheRunNeverReachedAreProblems() throws {
        let result = try CommandRunner.factoryhost(["check", "late.lua"], in: fixtures, killAfter: 30)
        let stop = "check stopped before it, at late.lua:3: container \"app\": check and graph build nothing, so declarations end here"
        let hint = "declare configurations and scopes before the script's first container, or anything with side effects — "
            + "in a module it requires first, as the examples do"
        #expect(result == ProcessResult(status: 1, stdout: """
            late.lua:4: configuration "late" was not checked
              \(stop)
              \(hint)
            late.lua:5: scope "never" was not checked
              \(stop)
              \(hint)
            ./late_module.lua:1: configuration "from-a-module" was not checked
              it is in ./late_module.lua, run at late.lua:6, which the run never reached (check stopped at late.lua:3: container "app": check and graph build nothing, so declarations end here)
              \(hint)
            3 problems in 1 configuration, 1 registration

            """, stderr: ""), "\(result)")
        // graph draws nothing it cannot vouch for.
        let graph = try CommandRunner.factoryhost(["graph", "--config", "app", "late.lua"], in: fixtures, killAfter: 30)
        #expect(graph.status == 1 && graph.stdout.isEmpty, "\(graph)")
        #expect(graph.stderr.hasPrefix("factoryhost: late.lua:4: configuration \"late\" was not checked\n"), "\(graph)")
        // A declaration in a branch the run did not take is not seen either.
        let branch = try CommandRunner.factoryhost(["check", "arguments.lua"], in: fixtures, killAfter: 30)
        #expect(branch.status == 1 && branch.stdout.hasPrefix("""
            arguments.lua:4: configuration "app" was not checked
              the script never ran it (it is in a function never called, or a branch not taken)

            """), "\(branch)")
    }

    /// Declarations the scan cannot see as sites, or whose line ran for another call, still count.
    @Test(arguments: [
        ("indirect_helper.lua", 4, "declare(…), which declares (indirect_helper.lua:1), was not checked"),
        ("indirect_one_line.lua", 1, "configuration \"late\" was not checked"),
        ("indirect_dofile.lua", 1, "configuration \"late_in_module\" was not checked"),
        ("indirect_pcall_require.lua", 3, "configuration \"late2b\" was not checked"),
        ("indirect_computed_require.lua", 3, "require of a computed name was not checked"),
        ("indirect_alias.lua", 4, "conf (the DSL, as bound at indirect_alias.lua:2) was not checked"),
        ("indirect_load.lua", 3, "load of code was not checked"),
        ("indirect_pending_body.lua", 3, "late (the DSL, as bound at indirect_pending_body.lua:1) was not checked"),
        ("indirect_path_later.lua", 4, "require \"subconf\" was not checked"),
        // The globals table indexed by a computed key, walked, or reached by name (attack 12: "ok", exit 0).
        ("indirect_globals_index.lua", 3, "_G indexed by a computed key was not checked"),
        ("indirect_globals_concat.lua", 3, "_G indexed by a computed key was not checked"),
        ("indirect_globals_walk.lua", 3, "_G used as a whole was not checked"),
        ("indirect_globals_loaded.lua", 3, "the globals reached by name was not checked"),
        // Taken as a value before the stop and called after it; where require looks, changed after it (attack 13: "ok").
        ("indirect_dsl_kept.lua", 1, "configuration used as a value was not checked"),
        ("indirect_require_alias.lua", 1, "require used as a value was not checked"),
        ("indirect_package_path.lua", 2, "package.path (where require looks) was not checked"),
    ])
    func whatTheScanCannotFollowAfterTheStopIsNeverOk(script: String, line: Int, message: String) throws {
        let result = try CommandRunner.factoryhost(["check", "--format", "json", script], in: fixtures, killAfter: 30)
        #expect(result.status == 1, "\(script): \(result)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
        let problems = (object["problems"] as? [[String: Any]]) ?? []
        #expect(problems.contains { ($0["message"] as? String) == message && (($0["origin"] as? [String: Any])?["line"] as? Int) == line },
                "\(script): \(result.stdout)")
    }

    /// Rebinding the DSL or require to its own name (`local require =
    /// require`) is no escape: calls of it keep the name, and are seen.
    @Test func aSameNameRebindingIsNoEscape() throws {
        let result = try CommandRunner.factoryhost(["check", "same_name_rebinding.lua"], in: fixtures, killAfter: 30)
        #expect(result.status == 0 && result.stdout.hasPrefix("ok: 1 configuration"), "\(result)")
    }

    /// A module required after the stop that is too big to read whole is
    /// not checked, and says so (attack 13: a 300 MB one was passed over: "ok").
    @Test func aModuleTooBigToReadAfterTheStopIsNotChecked() throws {
        let dir = try CommandRunner.scratchDirectory(["main.lua": "configuration 'app' {}\nos.execute('true')\nrequire 'big'\n"],
                                                     prefix: "fh-bigmodule")
        defer { try? FileManager.default.removeItem(at: dir) }
        let big = dir.appendingPathComponent("big.lua")
        try Data("--".utf8).write(to: big)
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: 300 << 20)                   // sparse: nothing is written
        try handle.close()
        let result = try CommandRunner.factoryhost(["check", "main.lua"], in: dir, killAfter: 30)
        #expect(result.status == 1 && result.stdout.hasPrefix("main.lua:3: require \"big\" was not checked\n"), "\(result)")
        #expect(result.stdout.contains("cannot read the module to see what it declares (./big.lua is 300 MB"), "\(result)")
    }

    @Test func sideEffectsAndTheTimeLimitStopTheRun() throws {
        let scratch = try CommandRunner.factoryhost(["check", "side_effect.lua"], in: fixtures, killAfter: 30)
        #expect(scratch.status == 1 && scratch.stdout.hasPrefix("""
            side_effect.lua:3: configuration "app" was not checked
              check stopped before it, at side_effect.lua:2: os.tmpname would create a file

            """), "\(scratch)")
        let loop = try CommandRunner.factoryhost(["check", "--timeout", "0.3", "loop.lua"], in: fixtures, killAfter: 30)
        #expect(loop.status == 1 && loop.stdout.hasPrefix("""
            loop.lua:2: configuration "app" was not checked
              check stopped before it, at loop.lua:1: time limit exceeded (0.3 seconds)

            """), "\(loop)")
        #expect(loop.seconds < 10, "\(loop)")
        // The README's examples: no server, no scratch file — and everything declared was seen.
        for (example, stop) in [("movie-loaders", "main.lua:6: LoopbackServer.start: the networking plugin uses the network, which check never does"),
                                ("persistence", "main.lua:3: os.tmpname would create a file")] {
            let result = try CommandRunner.factoryhost(["check", "Examples/\(example)/main.lua"], in: CommandRunner.packageRoot, killAfter: 30)
            #expect(result.status == 0 && result.stdout.hasSuffix(
                "(check stopped at Examples/\(example)/\(stop); every declaration was reached before)\n"), "\(result)")
        }
    }

    @Test func standardInputArgumentsAndSpecFiles() throws {
        let script = "require 'factoryhost.networking' configuration \"app\" { register \"Cache\" { deps = { s = \"HTTPSession\" }, make = function() end } }\n"
            + "assert(select('#', ...) == 2 and arg[2] == 'b', 'arguments')\n"
        for command in ["check", "graph"] {
            let arguments = command == "check" ? ["check", "-", "a", "b"] : ["graph", "--config", "app", "-", "a", "b"]
            let result = try CommandRunner.factoryhost(arguments, in: fixtures, input: script, killAfter: 30)
            #expect(result.stdout.contains(command == "check" ? "stdin:1: no registration for HTTPSession in configuration 'app'"
                                                              : "Cache [transient] stdin:1"), "\(command): \(result)")
        }
        let withArguments = try CommandRunner.factoryhost(["check", "arguments.lua", "full", "--config", "app"], in: fixtures, killAfter: 30)
        #expect(withArguments.status == 1 && withArguments.stdout.hasPrefix(
            "arguments.lua:4: no registration for HTTPSession in configuration 'app'\n"), "\(withArguments)")
        // After `--`, words that look like options are the script's too.
        let separated = try CommandRunner.factoryhost(["check", "arguments.lua", "--", "full"], in: fixtures, killAfter: 30)
        #expect(separated.status == 1 && separated.stdout.hasPrefix(
            "arguments.lua:4: no registration for HTTPSession in configuration 'app'\n"), "\(separated)")
        // A spec file: its top-level configurations are checked; hooks and tests do not run.
        let spec = try CommandRunner.factoryhost(["check", "suite_spec.lua"], in: fixtures, killAfter: 30)
        #expect(spec == ProcessResult(status: 1, stdout: """
            suite_spec.lua:2: no registration for HTTPSession in configuration 'app-tests'
              required by Cache as s: HTTPSession
              Cache registered at suite_spec.lua:2
            1 problem in 1 configuration, 1 registration

            """, stderr: ""), "\(spec)")
        // A describe's or a test's config that names nothing: the runner fails each of its tests; check says it at its line.
        let configDir = try CommandRunner.scratchDirectory(["config_spec.lua": """
            configuration "app" { register "table#A" { make = function() return {} end } }
            describe("checkout", { config = "ap" }, function()
              it("builds", { config = "app" }, function(c) end)
              it("also", { config = "nope" }, function(c) end)
            end)
            """], prefix: "fh-check-spec")
        defer { try? FileManager.default.removeItem(at: configDir) }
        let configs = try CommandRunner.factoryhost(["check", "config_spec.lua"], in: configDir, killAfter: 30)
        #expect(configs == ProcessResult(status: 1, stdout: """
            config_spec.lua:2: describe 'checkout' names configuration 'ap', which is not declared, did you mean 'app'?
              declared: app
            config_spec.lua:4: it 'also' names configuration 'nope', which is not declared
              declared: app
            2 problems in 1 configuration, 1 registration

            """, stderr: ""), "\(configs)")
        for example in ["assisted-factories/assisted", "builders/builders", "koober/koober", "movie-loaders/movies", "persistence/persistence"] {
            let result = try CommandRunner.factoryhost(["check", "Examples/\(example)_spec.lua"], in: CommandRunner.packageRoot, killAfter: 30)
            #expect(result.status == 0 && result.stdout.hasPrefix("ok: "), "\(example): \(result)")
        }
    }

    @Test func everyProblemGoesToOneChannelInOneFormatOrAsJSON() throws {
        let dsl = CommandRunner.fixtures.appendingPathComponent("dsl")
        // A declaration error is reported like any problem, on standard output.
        let duplicate = try CommandRunner.factoryhost(["check", "duplicate.lua"], in: dsl, killAfter: 30)
        #expect(duplicate.status == 1 && duplicate.stderr.isEmpty, "\(duplicate)")
        #expect(duplicate.stdout.hasPrefix("duplicate.lua:4: Cache is registered twice in configuration 'app'\n  first at duplicate.lua:3\n"),
                "\(duplicate)")
        let json = try CommandRunner.factoryhost(["check", "--format", "json", "late.lua"], in: fixtures, killAfter: 30)
        #expect(json.status == 1 && json.stderr.isEmpty, "\(json)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json)")
        #expect(object["ok"] as? Bool == false)
        #expect(object["complete"] as? Bool == true)
        #expect(object["configurations"] as? [String] == ["app"])
        let stopped = try #require(object["stopped"] as? [String: Any])
        #expect(stopped["reason"] as? String == "container")
        #expect((stopped["origin"] as? [String: Any])?["line"] as? Int == 3)
        let problems = try #require(object["problems"] as? [[String: Any]])
        #expect(problems.map { $0["kind"] as? String } == ["notChecked", "notChecked", "notChecked"])
        #expect(problems.map { ($0["origin"] as? [String: Any])?["line"] as? Int } == [4, 5, 1])
        #expect(problems.first?["message"] as? String == "configuration \"late\" was not checked")
        // Past the problem limit: "complete" says there may be more (the last problem says check stopped).
        let many = try CommandRunner.factoryhost(["check", "--format", "json", "repeated-problems-check.lua"],
                                                 in: CommandRunner.fixtures.appendingPathComponent("hostile"), killAfter: 30)
        let manyObject = try #require(try JSONSerialization.jsonObject(with: Data(many.stdout.utf8)) as? [String: Any], "\(many.stdout.prefix(300))")
        #expect(manyObject["complete"] as? Bool == false)
        #expect((manyObject["problems"] as? [[String: Any]])?.last?["kind"] as? String == "checkStopped")
        let broken = try CommandRunner.factoryhost(["check", "--format", "json", "broken.lua"], in: dsl, killAfter: 30)
        let brokenObject = try #require(try JSONSerialization.jsonObject(with: Data(broken.stdout.utf8)) as? [String: Any], "\(broken)")
        let kinds = (brokenObject["problems"] as? [[String: Any]])?.compactMap { $0["kind"] as? String }
        #expect(kinds == ["captiveDependency", "missingRegistration", "cycle"], "\(broken)")     // in line order
        let cycle = (brokenObject["problems"] as? [[String: Any]])?[2]
        #expect(cycle?["message"] as? String == "dependency cycle: SignInViewModel → SignInViewModel", "\(broken)")
        #expect(cycle?["configuration"] as? String == "app", "\(broken)")
        #expect(cycle?["details"] as? [String] == ["SignInViewModel registered at broken.lua:9"], "\(broken)")
    }
}

/// What a newcomer's first mistakes get (#37, from a newcomer's trial): a
/// misspelled built-in lifetime, a misspelled key, one configuration used
/// without naming it.
@Suite("A newcomer's typos")
struct NewcomerTypoTests {
    @Test func aMisspelledLifetimeOrKeySaysWhatWasMeant() throws {
        let result = try CommandRunner.factoryhost(["check", "-"], input: """
            configuration "shop" {
              register "table#Clock" { scope = "singelton", make = function() return {} end },
              register "table#Cart" { scope = "baskets", deps = { clock = "table#Clokc", c = "table#Clock" }, make = function() return {} end },
            }
            """)
        #expect(result == ProcessResult(status: 1, stdout: """
            stdin:2: table#Clock is registered in scope 'singelton', which is not declared, did you mean 'singleton'? in configuration 'shop'
              declared scopes: none (built in: transient, graph, singleton, weak)
              table#Clock registered at stdin:2
            stdin:3: table#Cart is registered in scope 'baskets', which is not declared in configuration 'shop'
              declared scopes: none (built in: transient, graph, singleton, weak)
              table#Cart registered at stdin:3
            stdin:3: no registration for table#Clokc in configuration 'shop'
              required by table#Cart as clock: table#Clokc
              did you mean table#Clock?
              table#Cart registered at stdin:3
            3 problems in 1 configuration, 2 registrations

            """, stderr: ""), "\(result)")
    }

    /// A syntax error in a required module is one problem at its line, not
    /// also "not checked" for each declaration of the module, each quoting it.
    @Test func aModuleThatDoesNotCompileIsOneProblem() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fh-module-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("lib"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("""
            scope "basket"
            configuration "shop" {
              register "table#Clock" { make = function() return {} end }
              register "table#X" { make = function() return {} end },
            }
            """.utf8).write(to: dir.appendingPathComponent("lib/shop_config.lua"))
        try Data("package.path = \"lib/?.lua;\" .. package.path\nrequire \"shop_config\"\nconfiguration \"late\" { }\n".utf8)
            .write(to: dir.appendingPathComponent("app.lua"))
        let result = try CommandRunner.factoryhost(["check", "app.lua"], in: dir)
        #expect(result == ProcessResult(status: 1, stdout: """
            lib/shop_config.lua:4: '}' expected (to close '{' at line 2) near 'register'
            app.lua:3: configuration "late" was not checked
              the script failed before it, at lib/shop_config.lua:4: '}' expected (to close '{' at line 2) near 'register'
              fix that error: check sees only what the script declares before it
            2 problems in 0 configurations, 0 registrations

            """, stderr: ""), "\(result)")
    }

    @Test func theOnlyConfigurationIsTheOnePlainResolveUses() throws {
        let script = """
            configuration "shop" { register "table#Clock" { make = function() return { now = 1 } end } }
            print(resolve("table#Clock").now)
            print(pcall(resolve, "table#Clokc"))
            """
        let result = try CommandRunner.factoryhost(["run", "-"], input: script)
        #expect(result.status == 0 && result.stdout.hasPrefix("1\nfalse\tno registration for table#Clokc in configuration 'shop'\n  did you mean table#Clock?"),
                "\(result)")
        let repl = try CommandRunner.factoryhost(["repl"], input: """
            configuration "shop" { register "table#Clock" { make = function() return { now = 1 } end } }
            :regs
            :inpsect 1
            :use shp
            """)
        #expect(repl.stdout == "table#Clock [transient]  stdin:1\n", "\(repl)")
        #expect(repl.stderr == """
            :inpsect is not a command, did you mean :inspect? (commands: :help, :configs, :regs, :graph, :inspect, :live, :use, :check, :reload, :time, :quit; :help says what each does)
            no configuration named 'shp', did you mean 'shop'? (configurations: shop)

            """, "\(repl)")
    }
}
