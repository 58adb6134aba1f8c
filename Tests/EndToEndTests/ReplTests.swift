import Foundation
import Testing

/// `factoryhost repl` on piped input: no prompts, each line evaluated and
/// printed exactly as at the prompt (issue #14).
@Suite("factoryhost repl on piped input")
struct ReplPipedTests {
    let dir = CommandRunner.fixtures.appendingPathComponent("repl")

    @Test func aScriptedSessionPrintsExactlyWhatThePromptWould() throws {
        let session = try String(contentsOf: dir.appendingPathComponent("session.txt"), encoding: .utf8)
        let result = try CommandRunner.factoryhost(["repl", "app.lua"], in: dir, input: session, killAfter: 30)
        #expect(result == ProcessResult(status: 1, stdout: #"""
            2
            "hello from app.lua"
            42
            "AB"
            82
            {
              [10] = true,
              a = { 1, 2, "three" },
              b = 2,
              nested = { deeper = { deepest = { bottom = {…} } } }
            }
            { self = <cycle> }
            "tab\9and \"quotes\""
            nil	false	2.0	3
            printed
            42
            app — 3 registrations, app.lua:4
            app-tests extends app — 3 registrations (1 of its own), app.lua:10
            plain resolve "X" now uses a new container of 'app-tests'
            MovieLoader {  -- MovieLoader [screen] in 'app', app.lua:7
              cache = Cache { count = 0 },
              fetches = 0,
              pendingCount = 0,
              session = HTTPSession { baseURL = "fixture://tests" }
            }
            MovieLoader {  -- MovieLoader [screen] in 'app', app.lua:7
              cache = Cache { count = 0 },
              fetches = 0,
              pendingCount = 0,
              session = HTTPSession { baseURL = "fixture://tests" }
            }
            registration: MovieLoader [screen] in 'app', app.lua:7
            held by: a container of 'app-tests', in its open 'screen' scope
            given:
              cache: Cache = Cache { count = 0 }
              session: HTTPSession = HTTPSession { baseURL = "fixture://tests" }
            methods: cancelAll, load, start
            properties: cache, fetches, pendingCount, session
            a container of 'app-tests'
              singletons:
                Cache [singleton] = Cache { count = 0 }  app.lua:5
                HTTPSession [singleton] = HTTPSession { baseURL = "fixture://tests" }  app.lua:11
              scope 'screen' (open)
                MovieLoader = MovieLoader {…}  app.lua:7
            MovieLoader [screen] app.lua:7 ●
            ├── cache: Cache [singleton] app.lua:5 ●
            └── session: HTTPSession [singleton] app.lua:11 ●
            MovieLoader [screen] ← cache: Cache, session: HTTPSession  app.lua:7
            ok: 2 configurations, 4 registrations declared (6 with inherited ones), no problems

            """#, stderr: """
            stdin:1: boom
            stack traceback:
            \t[C]: in function 'error'
            \tstdin:1: in main chunk
            :nope is not a command (commands: :help, :configs, :regs, :graph, :inspect, :live, :use, :check, :reload, :time, :quit; :help says what each does)

            """), "\(result)")
    }

    @Test func unfinishedChunksContinueAndSyntaxErrorsAreReported() throws {
        let input = """
            for i = 1, 3 do
              io.write(i, " ")
            end
            print()
            local function add(a,
                               b)
              return a + b
            end
            add(2, 3)
            x = = 1
            if true then
            """
        let result = try CommandRunner.factoryhost(["repl"], in: dir, input: input + "\n", killAfter: 30)
        #expect(result == ProcessResult(status: 1, stdout: "1 2 3 \n5\n",
                                        stderr: "stdin:1: unexpected symbol near '='\nstdin:1: 'end' expected near <eof>\n"),
                "\(result)")
    }

    /// A line stopped while the prompt's own code ran for it (its
    /// environment's metamethod, as a loop assigns a global) is placed at
    /// the user's line, not "[factoryhost repl]:31"; the session goes on.
    @Test func aLineStoppedInThePromptsOwnCodeIsPlacedAtTheUsersLine() throws {
        let result = try CommandRunner.factoryhost(["repl", "--timeout", "0.5"], in: dir,
                                                   input: "n = 0 while true do n = n + 1 end\nprint(n > 0)\n", killAfter: 30)
        #expect(result.stdout == "true\n" && result.stderr.hasPrefix("stdin:1: time limit exceeded (0.5 seconds)")
                && !result.stderr.contains("[factoryhost repl]"), "\(result)")
    }

    /// `:live` of 3,000 nested open scopes: 200 shown, indented 16 levels
    /// at most, and how many more (its text grew with the square of the
    /// nesting: 20,000 took 40 s and 1.2 GB).
    @Test func liveOfDeeplyNestedScopesIsBounded() throws {
        let input = """
            scope "s0"
            for i = 1, 3000 do scope("s" .. i, { within = "s" .. (i - 1) }) end
            configuration "app" { register "table#x" { scope = "s3000", make = function() return {} end } }
            c = container "app"
            s = c:openScope "s0"
            for i = 1, 3000 do s = s:openScope("s" .. i) end
            x = s:resolve "table#x"
            :live c

            """
        let result = try CommandRunner.factoryhost(["repl"], in: dir, input: input, killAfter: 60)
        #expect(result.status == 0 && result.stdout.contains("  … and 2801 more open scopes\n"), "\(result.stdout.suffix(300))")
        #expect(result.stdout.contains(String(repeating: "  ", count: 16) + "scope 's199' (open) — nested deeper than 16\n"))
        #expect(result.stdout.utf8.count < 20_000, "\(result.stdout.utf8.count) bytes")
    }

    /// A line nested too deeply for Lua's parser is that line's error, as
    /// lua5.4 says it — not with the REPL's own frames in a traceback.
    @Test func aLineTooDeepToParseIsItsOwnError() throws {
        let line = "return " + String(repeating: "{", count: 300) + String(repeating: "}", count: 300) + "\nprint('after')\n"
        let result = try CommandRunner.factoryhost(["repl"], in: dir, input: line, killAfter: 30)
        #expect(result.stderr == "C stack overflow\n" && result.stdout == "after\n", "\(result)")
    }

    /// `:live SCOPE` shows that scope and the scopes open inside it (it
    /// showed the whole container, whatever scope it was given).
    @Test func liveOfAScopeShowsThatScope() throws {
        let input = """
            scope "session"
            scope("screen", { within = "session" })
            configuration "app" {
              register "table#s" { scope = "singleton", make = function() return { n = 1 } end },
              register "table#sess" { scope = "session", make = function() return { who = "ann" } end },
              register "table#scr" { scope = "screen", make = function() return { screen = 1 } end },
            }
            c = container "app"
            c:resolve "table#s"
            s1 = c:openScope "session"
            s1:resolve "table#sess"
            sc = s1:openScope "screen"
            sc:resolve "table#scr"
            s2 = c:openScope "session"
            :live s1
            :live s2
            s2:close()
            :live s2
            c:close()
            :live c

            """
        let result = try CommandRunner.factoryhost(["repl"], in: dir, input: input, killAfter: 30)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasSuffix("""
            scope 'session' (open) of a container of 'app'
              table#sess = { who = "ann" }  stdin:3
              scope 'screen' (open)
                table#scr = { screen = 1 }  stdin:4
            scope 'session' (open) of a container of 'app'
              nothing built in it yet
            scope 'session' (closed) of a container of 'app'
              nothing built in it yet
            a container of 'app' (closed: it holds nothing and builds nothing)

            """), "\(result)")
    }

    /// `register` typed outside any configuration is noted after its line
    /// (it was silent until `:check`); a note does not fail the session.
    @Test func aRegistrationOutsideAnyConfigurationIsNoted() throws {
        let result = try CommandRunner.factoryhost(["repl"], in: dir, input: """
            x = register "table#Clock" { make = function() return {} end }
            configuration "app" { x }
            print(container("app"):resolve("table#Clock") ~= nil)

            """, killAfter: 30)
        #expect(result == ProcessResult(status: 0, stdout: "true\n", stderr: "note: stdin:1: register \"table#Clock\" is not inside any "
                                        + "configuration, so nothing uses it yet (put it in one: configuration \"app\" { register … })\n"),
                "\(result)")
    }

    @Test func runMinusIAndLua54sMinusEAndMinusLRunInOrder() throws {
        let result = try CommandRunner.factoryhost(["run", "-e", "order = 'e1'", "-l", "mod=order_module", "-e", "order = order .. ' e2'",
                                                    "-i", "app.lua"], in: dir, input: "order\nmod.loaded\ngreeting\n", killAfter: 30)
        #expect(result == ProcessResult(status: 0, stdout: "\"e1 module e2\"\ntrue\n\"hello from app.lua\"\n", stderr: ""), "\(result)")
        let plain = try CommandRunner.factoryhost(["run", "--config", "app", "-e", "print(1 + 1)", "app.lua"], in: dir, killAfter: 30)
        #expect(plain == ProcessResult(status: 0, stdout: "2\n", stderr: ""), "\(plain)")
        // -e alone, as lua5.4 -e runs it; nothing at all is a usage error.
        let alone = try CommandRunner.factoryhost(["run", "-e", "print(greeting or 'no script')", "-l", "order_module_free=string"],
                                                  in: dir, killAfter: 30)
        #expect(alone == ProcessResult(status: 0, stdout: "no script\n", stderr: ""), "\(alone)")
        let nothing = try CommandRunner.factoryhost(["run"], in: dir, killAfter: 30)
        #expect(nothing.status == 64 && nothing.stderr.hasPrefix("Error: give a script to run (or -e STAT, or -i for the REPL)"), "\(nothing)")
        // A script that fails: reported, no session, status 1 (as lua5.4 -i).
        let failing = try CommandRunner.factoryhost(["repl", "-e", "error('early')"], in: dir, input: "1\n", killAfter: 30)
        #expect(failing.status == 1 && failing.stdout.isEmpty && failing.stderr.hasPrefix("factoryhost: (command line):1: early"), "\(failing)")
        // Plain factoryhost with standard input not a terminal runs it as a script, as plain
        // lua5.4 does (it printed the help), for a custom host too; a failing one exits 1.
        for executable in [CommandRunner.factoryhost, CommandRunner.customHost] {
            let bare = try CommandRunner.run(executable, [], in: dir, input: "print(6 * 7, arg[0] ~= nil)\n", killAfter: 30)
            #expect(bare == ProcessResult(status: 0, stdout: "42\ttrue\n", stderr: ""), "\(bare)")
            let failing = try CommandRunner.run(executable, [], in: dir, input: "print('first')\nerror('boom')\n", killAfter: 30)
            #expect(failing.status == 1 && failing.stdout == "first\n" && failing.stderr.contains("stdin:2: boom"), "\(failing)")
        }
    }

    @Test func printingShowsTablesAsTheyAreAndNeverFails() throws {
        let input = """
            t = setmetatable({}, { __len = function() return 5 end, __index = function(_, i) print("INDEX", i) return i end })
            t
            setmetatable({ 1, 2, 3 }, { __index = function() error("index boom") end, __len = function() return "abc" end })
            setmetatable({}, { __metatable = "locked", __tostring = function() return "LOCKED" end })
            setmetatable({}, { __tostring = function() error("tostring boom") end }) ~= nil
            local keys = {} for i = 1, 40 do keys[setmetatable({}, { __tostring = function() return tostring(math.random()) end })] = i end
            select("#", ...)
            setmetatable(_ENV, nil)
            ::label:: print("a label is Lua, not a command")
            :   configs
            """
        let result = try CommandRunner.factoryhost(["repl", "app.lua"], in: dir, input: input + "\n", killAfter: 30)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout == """
            {}
            { 1, 2, 3 }
            LOCKED
            true
            0
            a label is Lua, not a command
            app — 3 registrations, app.lua:4
            app-tests extends app — 3 registrations (1 of its own), app.lua:10

            """, "\(result)")
        #expect(result.stderr.hasPrefix("stdin:1: cannot change a protected metatable\n"), "\(result)")
        // Bytes that are not UTF-8 reach Lua as they were piped.
        let raw = FileManager.default.temporaryDirectory.appendingPathComponent("fh-repl-bytes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: raw) }
        try Data([0x73, 0x20, 0x3D, 0x20, 0x22, 0xFF, 0xFE, 0x22, 0x0A] + Array("print(#s, s == \"\\255\\254\")\n".utf8)).write(to: raw)
        let bytes = try CommandRunner.run("/bin/sh", ["-c", "exec \"$0\" repl < \"$1\"", CommandRunner.factoryhost, raw.path], in: dir)
        #expect(bytes.stdout == "2\ttrue\n", "\(bytes)")
        // A value whose __tostring fails is shown by type and address, with why.
        let failing = try CommandRunner.factoryhost(["repl"], in: dir,
                                                    input: "setmetatable({}, { __tostring = function() error('no') end })\n", killAfter: 30)
        #expect(failing.stdout.hasPrefix("<table: 0x") && failing.stdout.hasSuffix(" (cannot be shown: stdin:1: no)>\n"), "\(failing)")
    }

    /// The pretty printer is compiled when first used, after prompt lines
    /// may have replaced the standard functions it uses: it still shows
    /// values as it would have at the start (it takes them when the REPL
    /// starts, as before it was split off).
    @Test func thePrinterCompiledLateUsesTheStandardFunctionsOfTheStart() throws {
        let input = """
            local keepNext, keepType = next, type
            next, type, tostring, pcall, select, rawget, rawlen = nil, nil, nil, nil, nil, nil, nil
            table.concat, table.sort, string.format = nil, nil, nil
            { b = 2, a = { 1, 2 }, [3] = "x" }
            42, "two"
            """
        let result = try CommandRunner.factoryhost(["repl"], in: dir, input: input + "\n", killAfter: 30)
        #expect(result == ProcessResult(status: 0, stdout: "{ [3] = \"x\", a = { 1, 2 }, b = 2 }\n42\t\"two\"\n", stderr: ""), "\(result)")
    }

    @Test func badCommandsAndOptionsAreClearErrors() throws {
        let input = """
            :use nope
            :graph
            :inspect
            :inspect 1 +
            :live 42
            :time
            1 + 1
            """
        let result = try CommandRunner.factoryhost(["repl", "app.lua"], in: dir, input: input + "\n", killAfter: 30)
        #expect(result.status == 1 && result.stdout == "2\n", "\(result)")
        #expect(result.stderr == """
            no configuration named 'nope' (configurations: app, app-tests)
            usage: :graph KEY [config]
            usage: :inspect EXPR
            stdin:1: unexpected symbol near <eof>
            :live 42: not a container or a scope (it is 42)
            usage: :time EXPR

            """, "\(result)")
        let noScript = try CommandRunner.factoryhost(["repl"], in: dir, input: ":reload\n", killAfter: 30)
        #expect(noScript.stderr == ":reload needs a script: start with factoryhost repl script.lua\n", "\(noScript)")
        // Standard input cannot be both the script and the session.
        for arguments in [["repl", "-"], ["run", "-i", "-"]] {
            let both = try CommandRunner.factoryhost(arguments, in: dir, input: "1\n", killAfter: 30)
            #expect(both.status == 64 && both.stderr.contains("standard input cannot be both the script and the session"), "\(both)")
        }
        let badTimeout = try CommandRunner.factoryhost(["repl", "--timeout", "soon"], in: dir, input: "", killAfter: 30)
        #expect(badTimeout.status == 64 && badTimeout.stderr.contains("--timeout: 'soon' is not a duration"), "\(badTimeout)")
        for command in ["check", "graph"] {
            let bad = try CommandRunner.factoryhost([command, "--config", "app", "--timeout=-1", "app.lua"], in: dir, killAfter: 30)
            #expect(bad.status == 64 && bad.stderr.contains("--timeout: '-1' is not a duration"), "\(command): \(bad)")
        }
        // Every command's --timeout is read and refused in one place, with the same words.
        for arguments in [["types", "--timeout", "1x"], ["test", "--timeout", "1x", "."], ["run", "--timeout", "1x", "app.lua"]] {
            let bad = try CommandRunner.factoryhost(arguments, in: dir, killAfter: 30)
            #expect(bad.status == 64 && bad.stderr.contains("--timeout: '1x' is not a duration (try 2, 0.5, 500ms or 1m)"), "\(arguments): \(bad)")
        }
    }

    /// At the prompt, plain `resolve` without a configuration says to `:use`
    /// one (it said to run with --config, which a running session cannot),
    /// and a scripted session whose line failed ends with status 1.
    @Test func plainResolveAtThePromptSaysUse() throws {
        let result = try CommandRunner.factoryhost(["repl", "app.lua"], in: dir, input: "resolve \"Cache\"\n", killAfter: 30)
        #expect(result.status == 1 && result.stderr.hasPrefix(
            "stdin:1: resolve needs a configuration: :use NAME (or start with --config NAME), or resolve from a container"), "\(result)")
        let fine = try CommandRunner.factoryhost(["repl", "app.lua"], in: dir, input: ":use app\nresolve \"Cache\"\n", killAfter: 30)
        #expect(fine.status == 0 && fine.stderr.isEmpty, "\(fine)")
    }

    /// A Lua table implementing a Swift protocol (held by the container as its
    /// adapter) is shown with its registration and holder too (it said "none known").
    @Test func aLuaImplementationOfASwiftProtocolSaysWhereItCameFrom() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("fh-repl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        try Data("""
            require "factoryhost.session"
            configuration "app" { register "AuthRemoteAPI" { scope = "singleton", make = function() return { signIn = print } end } }
            """.utf8).write(to: work.appendingPathComponent("fake.lua"))
        let result = try CommandRunner.factoryhost(["repl", "fake.lua"], in: work, input: "a = resolve \"AuthRemoteAPI\"\n:inspect a\n", killAfter: 30)
        #expect(result.status == 0 && result.stdout.hasSuffix("""
            -- AuthRemoteAPI [singleton] in 'app', fake.lua:2
            registration: AuthRemoteAPI [singleton] in 'app', fake.lua:2
            held by: a container of 'app'

            """), "\(result)")
    }

    /// `:reload` names what changed inside a registration — a parameter's
    /// value, `make`'s body, the scope — and a function that only moved is no
    /// change (#37: it said "no registration changed").
    @Test func reloadNamesWhatChangedInARegistration() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("fh-repl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        try Data("""
            configuration "app" {
              register "string#greeting" { params = { word = "hi", shout = function(s) return s end }, make = function(d) return d.word end },
              register "table#a" { make = function() return {} end },
            }
            """.utf8).write(to: work.appendingPathComponent("live.lua"))
        try Data("""
            configuration "app" {
              register "string#greeting" { params = { word = "hello", shout = function(s) return s:upper() end }, make = function(d) return d.word .. "!" end },

              register "table#a" { scope = "singleton", make = function() return {} end },
            }
            """.utf8).write(to: work.appendingPathComponent("next.lua"))
        let input = """
            local f = io.open("next.lua") local text = f:read("a") f:close() f = io.open("live.lua", "w") f:write(text) f:close()
            :reload
            :reload
            """
        let result = try CommandRunner.factoryhost(["repl", "live.lua"], in: work, input: input + "\n", killAfter: 30)
        #expect(result == ProcessResult(status: 0, stdout: """
            reloaded live.lua (the prompt's locals and globals went with the old host: resolve again)
            changed: app: string#greeting (parameter shout; parameter word "hi" → "hello"; make's body)
            changed: app: table#a (scope transient → singleton)
            reloaded live.lua (the prompt's locals and globals went with the old host: resolve again)
            no registration changed

            """, stderr: ""), "\(result)")
    }

    /// After a :reload that failed, :check says it checks the run before
    /// (it said ok for a script that no longer runs, #37).
    @Test func checkAfterAFailedReloadSaysWhatItChecks() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("fh-repl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        try Data("configuration 'app' { register 'table#a' { make = function() return {} end } }\n".utf8)
            .write(to: work.appendingPathComponent("live.lua"))
        let input = """
            local f = io.open("live.lua", "w") f:write("configuration 'app' {") f:close()
            :reload
            :check
            """
        let result = try CommandRunner.factoryhost(["repl", "live.lua"], in: work, input: input + "\n", killAfter: 30)
        #expect(result.stdout == "ok: 1 configuration, 1 registration, no problems\n", "\(result)")
        #expect(result.stderr.hasPrefix("reload failed, the session goes on with the old host: live.lua:1: unexpected symbol near <eof>")
                && result.stderr.contains("(the last :reload failed — live.lua:1: unexpected symbol near <eof> — so this checks the run before it)"),
                "\(result)")
    }

    /// A table a Lua factory built is shown as a Swift object is: where it
    /// came from, what holds it, what it was given (#37). A plain table has none.
    @Test func luaBuiltObjectsSayWhereTheyCameFrom() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("fh-repl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        try Data("""
            configuration "app" {
              register "table#Clock" { scope = "singleton", make = function() return { now = 1 } end },
              register "table#Cart" { deps = { clock = "table#Clock" }, make = function(d) return { clock = d.clock } end },
            }
            """.utf8).write(to: work.appendingPathComponent("shop.lua"))
        let input = """
            c = container "app"
            cart = c:resolve "table#Cart"
            cart
            :inspect cart
            :inspect c:resolve "table#Clock"
            :inspect { 1 }
            """
        let result = try CommandRunner.factoryhost(["repl", "shop.lua"], in: work, input: input + "\n", killAfter: 30)
        #expect(result == ProcessResult(status: 0, stdout: """
            { clock = { now = 1 } }  -- table#Cart [transient] in 'app', shop.lua:3
            { clock = { now = 1 } }  -- table#Cart [transient] in 'app', shop.lua:3
            registration: table#Cart [transient] in 'app', shop.lua:3
            held by: nothing (transient: each resolve makes a new one)
            given:
              clock: table#Clock = { now = 1 }
            { now = 1 }  -- table#Clock [singleton] in 'app', shop.lua:2
            registration: table#Clock [singleton] in 'app', shop.lua:2
            held by: a container of 'app'
            { 1 }
            registration: none known (a plain table: not built by a factory resolved at this prompt, nor held by the current container)

            """, stderr: ""), "\(result)")
    }

    /// A collection's collector printed "(from )": it names no configuration.
    @Test func regsNamesNoEmptyConfiguration() throws {
        let input = """
            configuration "base" { register "table#Rule" { into = "set", make = function() return {} end } }
            configuration "app" { extends = "base", register "table#Rule" { into = "set", make = function() return {} end } }
            :regs app Rule
            """
        let result = try CommandRunner.factoryhost(["repl"], input: input + "\n", killAfter: 30)
        #expect(result.status == 0 && !result.stdout.contains("(from )"), "\(result)")
        #expect(result.stdout.contains("(from base)"), "\(result)")
    }

    /// A search that finds nothing echoes its text bounded (attack 9: 60 KB
    /// was echoed whole); a command that takes nothing refuses what it is
    /// given (`:check app` checked every configuration and said "ok");
    /// `:help CMD` shows that command.
    @Test func commandsBoundWhatTheyEchoAndRefuseArgumentsTheyDoNotTake() throws {
        let input = """
            configuration "app" { register "table#x" { make = function() return {} end } }
            :regs app \(String(repeating: "Q", count: 60_000))
            :check app
            :configs x
            :reload now
            :help regs
            :help nope
            :help regs extra
            :graph table#x app extra
            :use app extra
            :quit now
            1 + 1
            """
        let result = try CommandRunner.factoryhost(["repl"], input: input + "\n", killAfter: 30)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("no registration in 'app' contains \"QQQ") == true && lines.first?.contains("bytes left out") == true)
        #expect((lines.first?.utf8.count ?? .max) < 400, "\(lines.first?.utf8.count ?? 0) bytes")
        #expect(Array(lines.dropFirst()) == [":regs [config] [text]  registrations: key, scope, dependencies, origin", "2"], "\(result)")
        #expect(result.stderr == """
            :check takes no arguments (got 'app'): the check command's report for the session's configurations
            :configs takes no arguments (got 'x'): configurations: what each extends, registrations, where declared
            :reload takes no arguments (got 'now'): run the script again in a fresh host and say what changed
            no command :nope (:help lists them)
            :help takes at most 1 word (:help [command]); left over: 'extra'
            :graph takes at most 2 words (:graph KEY [config]); left over: 'extra'
            :use takes at most 1 word (:use CONFIG); left over: 'extra'
            :quit takes no arguments (got 'now'): end the session (as Ctrl-D does)

            """, "\(result)")
        #expect(result.status == 1)
    }

    /// A key named by its name alone (`:graph SignupService` for
    /// `table#SignupService`) is suggested, and a name with a space typed
    /// unquoted gets the quoted command (newcomer trial: neither was said).
    @Test func graphSuggestsTheNamedKeyAndUnquotedNamesGetTheQuotedCommand() throws {
        let input = """
            configuration "staging eu" { register "table#SignupService" { make = function() return {} end } }
            :graph SignupService "staging eu"
            :use staging eu
            """
        let result = try CommandRunner.factoryhost(["repl"], input: input + "\n", killAfter: 30)
        #expect(result.stderr.contains("registered: table#SignupService — did you mean :graph table#SignupService?"), "\(result)")
        #expect(result.stderr.contains(":use takes at most 1 word (:use CONFIG); left over: 'eu'; to name 'staging eu', quote it: :use \"staging eu\""),
                "\(result)")
    }

    /// `:live` after `:use` of another configuration says the container it
    /// shows is the last one resolved from (newcomer trial: it showed 'dev'
    /// under 'prod' without a word).
    @Test func liveSaysWhenItShowsTheLastContainerOfAnotherConfiguration() throws {
        let input = """
            configuration "dev" { register "table#x" { make = function() return {} end } }
            configuration "prod" { register "table#x" { make = function() return {} end } }
            local c = container "dev"
            c:resolve "table#x"
            :use prod
            :live
            """
        let result = try CommandRunner.factoryhost(["repl"], input: input + "\n", killAfter: 30)
        #expect(result.stdout.contains("a container of 'dev' — the last container the prompt resolved from; 'prod', in use now, has none yet"),
                "\(result)")
    }

    /// A name holding a space is quoted (attack 11: `:use app tests` and
    /// `:use "app tests"` could not name configuration "app tests"; a tab
    /// separated nothing in `:regs`).
    @Test func quotedNamesHoldSpaces() throws {
        let input = """
            configuration "app tests" { register "table#B b" { make = function() return {} end } }
            :use "app tests"
            :regs 'app tests'	B
            :graph "table#B b"
            :use "app
            """
        let result = try CommandRunner.factoryhost(["repl"], input: input + "\n", killAfter: 30)
        #expect(result.stdout == """
            plain resolve "X" now uses a new container of 'app tests'
            table#B b [transient]  stdin:1
            table#B b [transient] stdin:1

            """, "\(result)")
        #expect(result.stderr == ":use: a quote is not closed in '\"app'\n", "\(result)")
    }

    @Test func reloadSaysWhatChanged() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("fh-repl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let script = work.appendingPathComponent("live.lua")
        try Data("configuration 'app' { register 'table#a' { make = function() return {} end } }\n".utf8).write(to: script)
        // The session rewrites its own script, then reloads it.
        let input = """
            local f = io.open("live.lua", "w") f:write("configuration 'app' { register 'table#b' { make = function() return {} end } }") f:close()
            :reload
            :regs app
            """
        let result = try CommandRunner.factoryhost(["repl", "live.lua"], in: work, input: input + "\n", killAfter: 30)
        #expect(result == ProcessResult(status: 0, stdout: """
            reloaded live.lua (the prompt's locals and globals went with the old host: resolve again)
            added:   app: table#b
            removed: app: table#a
            table#b [transient]  live.lua:1

            """, stderr: ""), "\(result)")
    }
}

/// A `:` command's expression that is not UTF-8 text is evaluated as its
/// bytes, as a plain line is; a name that is not text is refused, shown as
/// its bytes (attack 10: `:inspect #"\xFF"` printed 3 where the plain line
/// printed 1, and `:use \xFF` echoed U+FFFD, as a real U+FFFD).
@Suite("REPL commands read their bytes")
struct ReplCommandBytesTests {
    @Test func expressionsAreTheirBytesAndNamesThatAreNotTextAreRefused() throws {
        let input = #"#"\377"\n:inspect #"\377"\n:time #"\377"\n:live #"\377"\n:use \377\n:regs app \357\277\275\n"#
        let result = try CommandRunner.run("/bin/sh", ["-c", "printf '\(input)' | '\(CommandRunner.factoryhost)' repl"], killAfter: 30)
        let stdout = result.stdout, stderr = result.stderr
        let lines = stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4 && lines[0] == "1" && lines[1] == "1" && lines[2] == "1" && lines[3].hasPrefix("("), "\(stdout)")
        #expect(stderr.hasPrefix(":live #\"\\xFF\": not a container or a scope (it is 1)\n"
                                 + ":use: '\\xFF' is not UTF-8 text: configurations, keys and commands are named in text\n"), "\(stderr)")
        // A real U+FFFD is text: read as the search it is, not refused.
        #expect(!stderr.contains(":regs: '") && stderr.hasSuffix(":regs needs a configuration: :regs CONFIG [text], or :use CONFIG first (configurations: none)\n"),
                "\(stderr)")
    }
}
