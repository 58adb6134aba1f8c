import Foundation
import Testing

/// `run`, `check` and `graph` on scripts that use the DSL, good and broken,
/// with their exact output, as a user sees it.
@Suite("factoryhost run, check and graph on configuration scripts")
struct ScriptCommandsTests {
    let dsl = CommandRunner.fixtures.appendingPathComponent("dsl")
    let plugins = CommandRunner.fixtures.appendingPathComponent("plugins")

    @Test func runResolvesFromTheConfigurationItIsGiven() throws {
        let result = try CommandRunner.factoryhost(["run", "--config", "app-tests", "app.lua"], in: dsl)
        #expect(result == ProcessResult(status: 0, stdout: "movie 1 from fixture://\t1\nsigned in as ana\n", stderr: ""))
        let parsed = try CommandRunner.factoryhost(["run", "--config=app", "--timeout", "10", "app.lua"], in: dsl)
        #expect(parsed.status == 1)       // only app-tests has the sign-in screen
        #expect(parsed.stdout == "movie 1 from fixture://movies.example\t1\n")
        #expect(parsed.stderr.hasPrefix("factoryhost: app.lua:33: no registration for SignInViewModel in configuration 'app'\n"))
        let none = try CommandRunner.factoryhost(["run", "app.lua"], in: dsl)
        #expect(none.stderr.hasPrefix("factoryhost: app.lua:31: resolve needs a configuration: run with --config NAME, "
                                      + "or resolve from a container (container \"name\"):resolve(…) — configurations: app, app-tests\n"))
        // --config after the script is the script's own argument (as lua5.4 passes it): the message says so.
        for command in ["run", "repl"] {
            let misplaced = try CommandRunner.factoryhost([command, "app.lua", "--config", "app-tests"], in: dsl, input: "")
            #expect(misplaced.stderr.contains("configurations: app, app-tests (the --config after the script went to the script's arg: "
                                              + "options come before the script, factoryhost \(command) --config NAME script.lua)\n"),
                    "\(misplaced)")
        }
    }

    @Test func checkPassesAGoodScriptWithoutRunningIt() throws {
        let result = try CommandRunner.factoryhost(["check", "app.lua"], in: dsl)
        #expect(result == ProcessResult(status: 0, stdout: "ok: 2 configurations, 7 registrations declared (10 with inherited ones), no problems\n", stderr: ""))
    }

    @Test func checkReportsEveryProblemWithItsLine() throws {
        let result = try CommandRunner.factoryhost(["check", "broken.lua"], in: dsl)
        #expect(result == ProcessResult(status: 1, stdout: """
            broken.lua:4: captive dependency: singleton Cache would keep session-scoped instances after their scope closes in configuration 'app'
              path: Cache → UserSession
              UserSession registered at broken.lua:6
              Cache registered at broken.lua:4
              to fix: make Cache session-scoped (or scoped within it), or have it depend on a provider on the way to UserSession (deps = { x = provider "UserSession" }; in Swift .provider(…)): it resolves when called, in the scope open then
            broken.lua:7: no registration for HTTPSession in configuration 'app'
              required by MovieLoader as session: HTTPSession
              MovieLoader registered at broken.lua:7
            broken.lua:9: dependency cycle: SignInViewModel → SignInViewModel in configuration 'app'
              SignInViewModel registered at broken.lua:9
            3 problems in 1 configuration, 4 registrations

            """, stderr: ""))
        let one = try CommandRunner.factoryhost(["check", "--config", "nope", "broken.lua"], in: dsl)
        #expect(one == ProcessResult(status: 1, stdout: "", stderr: "factoryhost: no configuration named 'nope'\n  defined: app\n"))
    }

    @Test(arguments: [
        ("wrong_return.lua", """
            factoryhost: wrong_return.lua:4: the factory for Cache returned string "a string", expected Cache in configuration 'app'
              resolution path: Cache
              registered at wrong_return.lua:2
            stack traceback:
            	[C]: in method 'resolve'
            	wrong_return.lua:4: in main chunk
            	[C]: in ?

            """),
        ("duplicate.lua", """
            factoryhost: duplicate.lua:4: Cache is registered twice in configuration 'app'
              first at duplicate.lua:3
              again at duplicate.lua:4 (say it overrides to replace the first)
            stack traceback:
            	[C]: in ?
            	duplicate.lua:2: in main chunk
            	[C]: in ?

            """),
        ("missing_method.lua", """
            factoryhost: missing_method.lua:5: the factory for AuthRemoteAPI failed: missing_method.lua:3: bad argument #2 to 'implement' (table does not implement AuthRemoteAPI: missing signIn (required: signIn)) in configuration 'app-tests'
              resolution path: AuthRemoteAPI
              registered at missing_method.lua:3
            stack traceback:
            	[C]: in method 'resolve'
            	missing_method.lua:5: in main chunk
            	[C]: in ?

            """),
        ("wrong_argument.lua", """
            factoryhost: wrong_argument.lua:2: bad argument #2 to 'MovieLoader.new' (HTTPSession expected, got string)
            stack traceback:
            	[C]: in field 'new'
            	wrong_argument.lua:2: in main chunk
            	[C]: in ?

            """),
    ])
    func brokenScriptsFailWithExactMessages(script: String, expected: String) throws {
        let result = try CommandRunner.factoryhost(["run", script], in: dsl)
        #expect(result == ProcessResult(status: 1, stdout: "", stderr: expected))
    }

    /// Without --config: the only configuration, or each one as a tree (the other formats
    /// need one); --root suggests the keys near what was typed.
    @Test func graphDrawsTheOnlyConfigurationOrEachAndSuggestsRoots() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fh-graph-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try """
            interface "CheckoutViewModel" { "pay" }
            configuration "app" {
              register "CheckoutViewModel" { make = function() return { pay = function() end } end },
              register "table#cart" { deps = { vm = "CheckoutViewModel" }, make = function() return {} end },
            }
            configuration "app-tests" { extends = "app", register "table#fake" { make = function() return {} end } }
            """.write(to: directory.appendingPathComponent("cart.lua"), atomically: true, encoding: .utf8)
        try "configuration \"solo\" { register \"table#x\" { make = function() return {} end } }\n"
            .write(to: directory.appendingPathComponent("solo.lua"), atomically: true, encoding: .utf8)
        try "print('no configurations')\n".write(to: directory.appendingPathComponent("none.lua"), atomically: true, encoding: .utf8)
        let none = try CommandRunner.factoryhost(["graph", "none.lua"], in: directory)
        #expect(none == ProcessResult(status: 1, stdout: "", stderr: "factoryhost: graph: the script declares no configuration\n"), "\(none)")
        let solo = try CommandRunner.factoryhost(["graph", "solo.lua"], in: directory)
        #expect(solo == ProcessResult(status: 0, stdout: "table#x [transient] solo.lua:1\n", stderr: ""), "\(solo)")
        let each = try CommandRunner.factoryhost(["graph", "cart.lua", "--root", "table#fake"], in: directory)
        #expect(each == ProcessResult(status: 0, stdout: "configuration 'app-tests':\ntable#fake [transient] cart.lua:6\n", stderr: ""), "\(each)")
        let both = try CommandRunner.factoryhost(["graph", "cart.lua"], in: directory)
        #expect(both.status == 0 && both.stdout.hasPrefix("configuration 'app':\n") && both.stdout.contains("\n\nconfiguration 'app-tests':\n"), "\(both)")
        let dot = try CommandRunner.factoryhost(["graph", "cart.lua", "--format", "dot"], in: directory)
        #expect(dot == ProcessResult(status: 64, stdout: "", stderr: "factoryhost: graph: the script declares 2 configurations (app, app-tests): "
                                     + "give --config NAME (the tree format draws each)\n"), "\(dot)")
        let typo = try CommandRunner.factoryhost(["graph", "cart.lua", "--config", "app", "--root", "table#crt"], in: directory)
        #expect(typo == ProcessResult(status: 1, stdout: "", stderr: "factoryhost: no registration for table#crt in configuration 'app'\n  did you mean 'table#cart'?\n"), "\(typo)")
        // A root no configuration holds is an error, with or without --config (it drew nothing, status 0).
        let nowhere = try CommandRunner.factoryhost(["graph", "cart.lua", "--root", "table#carts"], in: directory)
        #expect(nowhere == ProcessResult(status: 1, stdout: "", stderr: "factoryhost: no registration for table#carts in configuration 'app'\n  did you mean 'table#cart'?\n"), "\(nowhere)")
        // Part of a key that is not a type names the keys holding it.
        let part = try CommandRunner.factoryhost(["graph", "cart.lua", "--root", "Cart"], in: directory)
        #expect(part == ProcessResult(status: 1, stdout: "", stderr: "factoryhost: no registration for Cart\n  nearest: table#cart\n"), "\(part)")
        let prefix = try CommandRunner.factoryhost(["graph", "cart.lua", "--config", "app", "--root", "Checkout"], in: directory)
        #expect(prefix == ProcessResult(status: 1, stdout: "", stderr: "factoryhost: no registration for Checkout\n  nearest: CheckoutViewModel\n"), "\(prefix)")
        // Neither a type nor part of a key: the unknown type's own message.
        let neither = try CommandRunner.factoryhost(["graph", "cart.lua", "--root", "Zebra"], in: directory)
        #expect(neither.status == 1 && neither.stderr.hasPrefix("factoryhost: unknown type 'Zebra'"), "\(neither)")
    }

    @Test func graphPrintsTreeDotAndJSON() throws {
        let tree = try CommandRunner.factoryhost(["graph", "app.lua", "--config", "app-tests", "--root", "SignInViewModel"], in: dsl)
        #expect(tree == ProcessResult(status: 0, stdout: """
            SignInViewModel [transient] app.lua:27
            ├── api: AuthRemoteAPI [transient] app.lua:23
            └── makeSession: provider of UserSession [transient] args(user: string) app.lua:15

            """, stderr: ""))
        let dot = try CommandRunner.factoryhost(["graph", "app.lua", "--config", "app", "--root", "MovieLoader", "--format", "dot"], in: dsl)
        #expect(dot.stdout == """
            digraph "app" {
              rankdir=LR;
              node [shape=box, fontname="Helvetica"];
              n0 [label="MovieLoader\\ntransient\\napp.lua:11"];
              n1 [label="Cache\\nsingleton\\napp.lua:8"];
              n2 [label="HTTPSession\\nsingleton\\napp.lua:9"];
              n0 -> n1 [label="cache"];
              n0 -> n2 [label="session"];
            }

            """)
        let json = try CommandRunner.factoryhost(["graph", "broken.lua", "--config", "app", "--format", "json"], in: dsl)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let nodes = try #require(object["nodes"] as? [[String: Any]])
        let edges = try #require(object["edges"] as? [[String: Any]])
        #expect(object["configuration"] as? String == "app")
        #expect(nodes.count == 5 && edges.count == 4)
        let missing = try #require(nodes.first { $0["scope"] as? String == "missing" })
        #expect(missing["key"] as? String == "HTTPSession")
        #expect(missing["origin"] is NSNull)
        let bad = try CommandRunner.factoryhost(["graph", "app.lua", "--config", "app", "--root", "Nope"], in: dsl)
        #expect(bad.status == 1)
        #expect(bad.stderr == "factoryhost: unknown type 'Nope'; to name a type of your own, declare it with interface \"Nope\" { … }, or take any table as \"table#Nope\"\n", "\(bad)")
        let format = try CommandRunner.factoryhost(["graph", "app.lua", "--config", "app", "--format", "svg"], in: dsl)
        #expect(format.status != 0 && format.stderr.contains("'svg'"))
    }

    @Test func luaPluginsLoadFromTheFlagAndTheEnvironment() throws {
        let flag = try CommandRunner.factoryhost(["run", "--plugin-path", "good", "good/use.lua"], in: plugins)
        #expect(flag == ProcessResult(status: 0, stdout: "true\n", stderr: ""))
        let env = try CommandRunner.factoryhost(["run", "good/use.lua"], in: plugins, environment: ["FACTORYHOST_PLUGIN_PATH": "good"])
        #expect(env == ProcessResult(status: 0, stdout: "true\n", stderr: ""))
        let cycle = try CommandRunner.factoryhost(["check", "--plugin-path", "cycle", "good/use.lua"], in: plugins)
        #expect(cycle == ProcessResult(status: 1, stdout: "", stderr:
            "factoryhost: plugin requirement cycle: a → b → a (cycle/a/manifest.lua, cycle/b/manifest.lua)\n"))
        let manifest = try CommandRunner.factoryhost(["run", "--plugin-path", "badmanifest", "good/use.lua"], in: plugins)
        #expect(manifest == ProcessResult(status: 1, stdout: "", stderr:
            "factoryhost: badmanifest/p/manifest.lua: bad plugin manifest: 'version' must be a version string such as \"1.0.0\"\n"))
    }

    @Test func anApplicationBuildsItsOwnHostInAFewLines() throws {
        let script = CommandRunner.packageRoot.appendingPathComponent("Examples/custom-host/greet.lua").path
        let result = try CommandRunner.run(CommandRunner.customHost, ["run", script, "Linus"])
        #expect(result == ProcessResult(status: 0, stdout: "Hello, Ada!\nGood evening, Linus!\n", stderr: ""))
        let check = try CommandRunner.run(CommandRunner.customHost, ["check", script])
        #expect(check == ProcessResult(status: 0, stdout: "ok: 2 configurations, 2 registrations declared (3 with inherited ones), no problems\n", stderr: ""))
    }

    /// A `@MainActor` export (#36) works from Lua on a host's main thread —
    /// run, the REPL and a test worker all run Lua there — and a coroutine
    /// changes nothing (it runs on the same thread).
    @Test func aMainActorExportRunsOnTheMainThreadOfAHost() throws {
        let script = """
            local g = require "factoryhost.greetings"
            local book = g.GuestBook.new()
            book:sign("Ada")
            print(book:sign("Grace"), table.concat(book.names, ","))
            print(coroutine.wrap(function() return book:sign("Linus") end)())
            """
        let run = try CommandRunner.run(CommandRunner.customHost, ["run", "-"], input: script)
        #expect(run == ProcessResult(status: 0, stdout: "2\tAda,Grace\n3\n", stderr: ""), "\(run)")
        let repl = try CommandRunner.run(CommandRunner.customHost, ["repl"], input: script)
        #expect(repl == ProcessResult(status: 0, stdout: "1\n2\tAda,Grace\n3\n", stderr: ""), "\(repl)")   // (the prompt prints sign's 1)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fh-mainactor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for index in 1...2 {
            try Data("""
                local g = require "factoryhost.greetings"
                it("signs", function() expect(g.GuestBook.new():sign("Ada")):to_equal(1) end)
                """.utf8).write(to: dir.appendingPathComponent("book\(index)_spec.lua"))
        }
        let test = try CommandRunner.run(CommandRunner.customHost, ["test", "--jobs", "2", dir.path])
        #expect(test.status == 0 && test.stdout.hasSuffix("2 passed, 0 failed\n"), "\(test)")
    }

    /// A custom host's messages, help and REPL carry its own name, not `factoryhost`.
    @Test func aCustomHostSpeaksUnderItsOwnName() throws {
        let failing = try CommandRunner.run(CommandRunner.customHost, ["run", "-e", "error('boom')"])
        #expect(failing.status == 1 && failing.stderr.hasPrefix("custom-host-example: (command line):1: boom"), "\(failing)")
        let missing = try CommandRunner.run(CommandRunner.customHost, ["graph", "--config", "x", "/nonexistent/app.lua"])
        #expect(missing.status != 0 && missing.stderr.hasPrefix("custom-host-example: "), "\(missing)")
        let help = try CommandRunner.run(CommandRunner.customHost, ["--help"])
        #expect(help.stdout.contains("USAGE: custom-host-example <subcommand>") && help.stdout.contains("`custom-host-example run script.lua`")
                && !help.stdout.contains("factoryhost run"), "\(help)")
        let runHelp = try CommandRunner.run(CommandRunner.customHost, ["run", "--help"])
        #expect(runHelp.stdout.contains("USAGE: custom-host-example run"), "\(runHelp)")
        let repl = try CommandRunner.run(CommandRunner.customHost, ["repl"], input: ":reload\n")
        #expect(repl.stderr.contains("start with custom-host-example repl script.lua"), "\(repl)")
        let completion = try CommandRunner.run(CommandRunner.customHost, ["--generate-completion-script", "bash"])
        #expect(completion.stdout.contains("_custom-host-example") && !completion.stdout.contains("factoryhost"), "\(completion)")
    }

    /// The host's Swift plugin declares configuration `base`: check, graph
    /// and the REPL see it though the script never uses the DSL (the plugins
    /// install when the first DSL call needs them, and these install them
    /// before they report).
    @Test func aPluginsConfigurationIsSeenWithoutAnyDSLCall() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fh-nodsl-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "print('no DSL here')\n".write(to: directory.appendingPathComponent("nodsl.lua"), atomically: true, encoding: .utf8)
        let check = try CommandRunner.run(CommandRunner.customHost, ["check", "nodsl.lua"], in: directory)
        #expect(check == ProcessResult(status: 0, stdout: "ok: 1 configuration, 1 registration, no problems\n", stderr: ""))
        let named = try CommandRunner.run(CommandRunner.customHost, ["check", "--config", "base", "nodsl.lua"], in: directory)
        #expect(named.status == 0, "\(named)")
        let graph = try CommandRunner.run(CommandRunner.customHost, ["graph", "--config", "base", "nodsl.lua"], in: directory)
        #expect(graph.status == 0 && graph.stdout.contains("Greeter"), "\(graph)")
        let repl = try CommandRunner.run(CommandRunner.customHost, ["repl"], in: directory, input: ":configs\n:regs base\n")
        #expect(repl.status == 0 && repl.stdout.contains("base") && repl.stdout.contains("Greeter"), "\(repl)")
        // With none defined, check and graph both say so in the same words.
        let none = try CommandRunner.factoryhost(["check", "--config", "nope", "nodsl.lua"], in: directory)
        #expect(none == ProcessResult(status: 1, stdout: "", stderr: "factoryhost: no configuration named 'nope'\n  defined: none\n"))
        let noneGraph = try CommandRunner.factoryhost(["graph", "--config", "nope", "nodsl.lua"], in: directory)
        #expect(noneGraph.status == 1 && noneGraph.stderr.contains("defined: none"), "\(noneGraph)")
    }
}
