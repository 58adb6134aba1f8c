import Foundation
import Testing

/// `--set` and `--values` reach the scripts of every command that loads
/// them — run, repl, check, graph, test (and test's workers) — with the
/// declared environment variable and values { … } below them.
@Suite("Configuration values on the command line")
struct ConfigurationValuesCommandTests {
    private let script = """
        value "greeting" { type = "string", default = "hello", env = "FH_E2E_GREETING" }
        value "times" { type = "integer", default = 1 }
        configuration "app" {
          register "table#greeter" { deps = { text = value "greeting", times = value "times" },
            make = function(d) return { line = string.rep(d.text, d.times, " ") } end },
        }
        """

    private func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fh-values-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func runTakesSetsFilesAndTheEnvironmentInOrder() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data((script + "\nprint(container('app'):resolve('table#greeter').line)\n").utf8).write(to: dir.appendingPathComponent("app.lua"))
        try Data("return { greeting = 'salut', times = 2 }".utf8).write(to: dir.appendingPathComponent("values.lua"))
        let plain = try CommandRunner.factoryhost(["run", "app.lua"], in: dir)
        #expect(plain.stdout == "hello\n", "\(plain)")
        let file = try CommandRunner.factoryhost(["run", "--values", "values.lua", "app.lua"], in: dir)
        #expect(file.stdout == "salut salut\n", "\(file)")
        let environment = try CommandRunner.factoryhost(["run", "--values=values.lua", "app.lua"], in: dir,
                                                        environment: ["FH_E2E_GREETING": "hola"])
        #expect(environment.stdout == "hola hola\n", "\(environment)")
        let set = try CommandRunner.factoryhost(["run", "--values", "values.lua", "--set", "greeting=ciao", "--set=times=3", "app.lua"],
                                                in: dir, environment: ["FH_E2E_GREETING": "hola"])
        #expect(set.stdout == "ciao ciao ciao\n", "\(set)")
        // The sandbox reads no variable unless granted the environment.
        let sandboxed = try CommandRunner.factoryhost(["run", "--sandbox", "app.lua"], in: dir, environment: ["FH_E2E_GREETING": "hola"])
        #expect(sandboxed.stdout == "hello\n", "\(sandboxed)")
        let granted = try CommandRunner.factoryhost(["run", "--sandbox", "--allow", "environment", "app.lua"], in: dir,
                                                    environment: ["FH_E2E_GREETING": "hola"])
        #expect(granted.stdout == "hola\n", "\(granted)")
    }

    /// A values file that loops is stopped by the command's own --timeout
    /// (it had a fixed 2 s), and `test` reports it once, as the command's
    /// error, not as each spec file failing to load.
    @Test(arguments: [["run", "--timeout", "0.3s"], ["check", "--timeout", "0.3s"], ["graph", "--timeout", "0.3s"], ["test", "--timeout", "0.3s"]])
    func aValuesFileThatLoopsHasTheCommandsLimit(_ command: [String]) throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(script.utf8).write(to: dir.appendingPathComponent("app.lua"))
        try Data("describe('d', function() it('x', function() end) end)\n".utf8).write(to: dir.appendingPathComponent("a_spec.lua"))
        try Data("while true do end\n".utf8).write(to: dir.appendingPathComponent("loop.lua"))
        let target = command[0] == "test" ? "a_spec.lua" : "app.lua"
        let result = try CommandRunner.factoryhost(command + ["--values", "loop.lua", target], in: dir, killAfter: 30)
        #expect(result.status == 1 && result.seconds < 1.5, "\(result)")
        #expect(result.stderr.contains("values file loop.lua: loop.lua:1: time limit exceeded (0.3 seconds)"), "\(result)")
        #expect(!result.stdout.contains("failed to load"), "\(result)")
    }

    @Test func checkGraphTestAndReplTakeThemToo() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(script.utf8).write(to: dir.appendingPathComponent("app.lua"))
        let check = try CommandRunner.factoryhost(["check", "--set", "times=x", "--set", "greting=hi", "app.lua"], in: dir)
        #expect(check.status == 1, "\(check)")
        #expect(check.stdout.contains("value 'times' from --set times: \"x\" is not an integer"), "\(check)")
        #expect(check.stdout.contains("--set greting gives 'greting', which no script declares, did you mean 'greeting'?"), "\(check)")
        let ok = try CommandRunner.factoryhost(["check", "--set", "times=2", "app.lua"], in: dir)
        #expect(ok.status == 0 && ok.stdout.hasPrefix("ok:"), "\(ok)")
        let graph = try CommandRunner.factoryhost(["graph", "--config", "app", "--set", "times=2", "app.lua"], in: dir)
        #expect(graph.status == 0, "\(graph)")
        try Data("""
            require "app"
            describe("greeter", { config = "app" }, function()
              it("greets as told", function(c) expect(c:resolve("table#greeter").line):to_be("hey") end)
              it("gets values of its own, under --set's", function(c)
                values { times = 3, greeting = "ignored: --set wins" }
                expect(c:resolve("table#greeter").line):to_be("hey hey hey")
              end)
              it("does not see the last test's", function(c) expect(c:resolve("table#greeter").line):to_be("hey") end)
              it("declares a value of its own", function() value "local" { type = "integer", default = 1 } end)
              it("may declare it another way", function() value "local" { type = "string", default = "x" } end)
            end)
            """.utf8).write(to: dir.appendingPathComponent("greeter_spec.lua"))
        for jobs in ["1", "2"] {
            let test = try CommandRunner.factoryhost(["test", "--jobs", jobs, "--values", "v.lua", "--set", "greeting=hey", "--set", "times=2",
                                                      "greeter_spec.lua"], in: dir)
            // Once, as the command's error (as run says it), not as each spec file failing to load.
            #expect(test.status == 1 && test.stderr.contains("values file v.lua: cannot open") && test.stdout.isEmpty,
                    "a missing values file: \(test)")
        }
        let test = try CommandRunner.factoryhost(["test", "--set", "greeting=hey", "greeter_spec.lua"], in: dir)
        #expect(test.status == 0 && test.stdout.hasSuffix("5 passed, 0 failed\n"), "\(test)")
        let repl = try CommandRunner.factoryhost(["repl", "--set", "times=2", "app.lua"], in: dir,
                                                 input: "container('app'):resolve('table#greeter').line\n")
        #expect(repl.stdout.contains("\"hello hello\""), "\(repl)")
    }

    /// What a factory reads from configuration values is shown with its dependencies:
    /// graph (every format) and the REPL's :regs (they showed nothing of it).
    @Test func valueDependenciesAppearInGraphAndRegs() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try script.write(to: dir.appendingPathComponent("app.lua"), atomically: true, encoding: .utf8)
        let tree = try CommandRunner.factoryhost(["graph", "app.lua"], in: dir)
        #expect(tree == ProcessResult(status: 0, stdout: """
            table#greeter [transient] app.lua:4
            ├── text: value greeting
            └── times: value times

            """, stderr: ""), "\(tree)")
        let json = try CommandRunner.factoryhost(["graph", "app.lua", "--format", "json"], in: dir)
        #expect(json.stdout.contains(#""values": [{"label": "text", "name": "greeting"}, {"label": "times", "name": "times"}]"#), "\(json)")
        for format in ["dot", "mermaid"] {
            let drawn = try CommandRunner.factoryhost(["graph", "app.lua", "--format", format], in: dir)
            #expect(drawn.stdout.contains("text: value greeting, times: value times"), "\(drawn)")
        }
        let regs = try CommandRunner.factoryhost(["repl", "app.lua"], in: dir, input: ":regs app\n")
        #expect(regs.stdout == "table#greeter [transient] ← text: value greeting, times: value times  app.lua:4\n", "\(regs)")
    }

    @Test func aMalformedSetIsRefusedByEveryCommand() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(script.utf8).write(to: dir.appendingPathComponent("app.lua"))
        for command in [["run"], ["check"], ["graph", "--config", "app"], ["test"], ["repl"]] {
            let result = try CommandRunner.factoryhost(command + ["--set", "times", "app.lua"], in: dir)
            #expect(result.status == 64 && result.stderr.contains("--set takes name=value (got 'times')"), "\(command): \(result)")
        }
    }
}
