import Foundation
import Testing

/// Command-line conventions (issue #17, part): `help` of a command that
/// does not exist is a usage error, and `graph` draws Mermaid too.
@Suite("Command-line conventions")
struct CommandLineConventionsTests {
    @Test func helpOfAnUnknownCommandIsAUsageError() throws {
        let result = try CommandRunner.factoryhost(["help", "nope"])
        #expect(result == ProcessResult(status: 64, stdout: "", stderr: """
            Error: no command 'nope' (commands: run, repl, check, graph, test, types)
              See 'factoryhost --help' for more information.

            """), "\(result)")
        let known = try CommandRunner.factoryhost(["help", "graph"])
        #expect(known.status == 0 && known.stdout.contains("Mermaid"), "\(known)")
    }

    /// A first word that is no command: a script file runs, as with `lua5.4
    /// app.lua`; another word is a mistyped command with the nearest named
    /// (both were "unexpected argument").
    @Test func aFirstWordThatIsNoCommandRunsAFileOrSaysWhichCommandWasMeant() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fh-first-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("print('ran', ...)\n".utf8).write(to: dir.appendingPathComponent("app.lua"))
        let script = try CommandRunner.factoryhost(["app.lua", "a", "b"], in: dir)
        #expect(script == ProcessResult(status: 0, stdout: "ran\ta\tb\n", stderr: ""), "\(script)")
        let piped = try CommandRunner.factoryhost(["-"], in: dir, input: "print(2)\n")
        #expect(piped == ProcessResult(status: 0, stdout: "2\n", stderr: ""), "\(piped)")
        let missing = try CommandRunner.factoryhost(["gone.lua"], in: dir)
        #expect(missing.status == 1 && missing.stderr.contains("cannot open gone.lua"), "\(missing)")
        let typo = try CommandRunner.factoryhost(["grph", "app.lua"], in: dir)
        #expect(typo == ProcessResult(status: 64, stdout: "", stderr: """
            Error: no command 'grph', did you mean 'graph'? (commands: run, repl, check, graph, test, types; to run a script: factoryhost run FILE)
              See 'factoryhost --help' for more information.

            """), "\(typo)")
    }

    @Test func graphDrawsMermaid() throws {
        let result = try CommandRunner.factoryhost(["graph", "--config", "app", "--root", "MovieLoader", "--format", "mermaid",
                                                    "Examples/movie-loaders/main.lua"], in: CommandRunner.packageRoot)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == """
            flowchart LR
              n0["MovieLoader<br/>screen<br/>Examples/movie-loaders/movies_configuration.lua:27"]
              n1["MovieLoaderFactory<br/>singleton<br/>Examples/movie-loaders/movies_configuration.lua:24"]
              n2["Cache<br/>singleton<br/>Examples/movie-loaders/movies_configuration.lua:21"]
              n3["HTTPSession<br/>singleton<br/>url: value baseURL<br/>Examples/movie-loaders/movies_configuration.lua:22"]
              n0 -->|"factory"| n1
              n1 -->|"cache"| n2
              n1 -->|"session"| n3

            """, "\(result)")
    }

    /// `test --color`: always (even into a pipe, even with NO_COLOR), never,
    /// or auto (a pipe gets none).
    @Test func testColoursAsAsked() throws {
        let specs = CommandRunner.fixtures.appendingPathComponent("specs")
        let always = try CommandRunner.factoryhost(["test", "--color", "always", "coverage/farewell_spec.lua"], in: specs,
                                                   environment: ["NO_COLOR": "1"])
        #expect(always.status == 0 && always.stdout.hasPrefix("\u{1B}[1mcoverage/farewell_spec.lua\u{1B}[0m\n"), "\(always)")
        for mode in ["never", "auto"] {
            let plain = try CommandRunner.factoryhost(["test", "--color", mode, "coverage/farewell_spec.lua"], in: specs)
            #expect(plain.status == 0 && !plain.stdout.contains("\u{1B}"), "\(mode): \(plain)")
        }
        let bad = try CommandRunner.factoryhost(["test", "--color", "sometimes", "coverage"], in: specs)
        #expect(bad.status == 64 && bad.stderr.hasPrefix("Error: --color: 'sometimes' is not auto, always or never"), "\(bad)")
    }
}
