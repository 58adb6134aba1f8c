import Foundation
import Testing

@Suite("factoryhost run: limits, sandbox, help and version")
struct RunOptionsTests {
    @Test func timeoutStopsARunawayScript() throws {
        let start = Date()
        let result = try CommandRunner.factoryhost(["run", "--timeout", "300ms", "-"], input: "local n = 0\nwhile true do n = n + 1 end\n")
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("factoryhost: stdin:2: time limit exceeded (0.3 seconds)\nstack traceback:"))
        #expect(Date().timeIntervalSince(start) < 20)
    }

    /// `-e` and `-l` before a script run in order, as lua5.4 runs them, however many
    /// arguments the script has: the argument parser's time grew with the square of
    /// the words it read (`run -e x app.lua` with 20,000 arguments took 9.5 s in a
    /// release build), so these are read as plain options are.
    @Test func statementsAndModulesBeforeAScriptWithManyArguments() throws {
        let arguments = (1...20_000).map { "a\($0)" }
        let result = try CommandRunner.factoryhost(
            ["run", "-e", "x = 41", "-l", "t=table", "-e", "print(t.concat({x + 1, #arg, arg[1], arg[20000]}, ' '))", "-"] + arguments,
            input: "print(select('#', ...))\n", killAfter: 20)
        #expect(result == ProcessResult(status: 0, stdout: "42 20000 a1 a20000\n20000\n", stderr: ""))
        // lua5.4's joined forms, with and without a script.
        let joined = try CommandRunner.factoryhost(["run", "-ex = 1", "-lstring", "-eprint(x + 1, string.rep('a', 2))"])
        #expect(joined == ProcessResult(status: 0, stdout: "2\taa\n", stderr: ""))
        // Without `run`, as lua5.4 takes them (they were "Unknown option '-e'").
        let bare = try CommandRunner.factoryhost(["-e", "x = 6", "-lstring", "-eprint(x * 7)"])
        #expect(bare == ProcessResult(status: 0, stdout: "42\n", stderr: ""))
        // …and run's own options before the script, as `factoryhost app.lua` is run (they were "Unknown option").
        let bareOption = try CommandRunner.factoryhost(["--timeout", "5s", "--set", "x=1", "-"], input: "print('ran')\n")
        #expect(bareOption == ProcessResult(status: 0, stdout: "ran\n", stderr: ""))
        let beforeTheREPL = try CommandRunner.factoryhost(["repl", "-e", "x = 5"], input: "print(x)\n")
        #expect(beforeTheREPL.stdout.contains("5\n"))
        // What only the parser reads (-i, here) is refused past its bound, with why, rather than read for seconds.
        let interactive = try CommandRunner.factoryhost(["run", "-i", "-e", "x = 1"] + arguments, killAfter: 20)
        #expect(interactive.status == 64)
        #expect(interactive.stderr == "factoryhost: 20004 command-line words: more than the 1000 that -i, --help and unusual option forms "
                + "are read with (a plain `factoryhost run [options] script.lua args…` takes any number)\n")
        // A statement that does not compile stops before the script, as lua5.4's does.
        let broken = try CommandRunner.factoryhost(["run", "-e", "x =", "-"], input: "print('not run')\n")
        #expect(broken.status == 1)
        #expect(broken.stdout == "")
        #expect(broken.stderr.hasPrefix("factoryhost: (command line):1: unexpected symbol near <eof>"))
    }

    /// A usage error quotes what was typed: bounded and terminal-safe, as every
    /// message (100 KB were echoed whole, and escape sequences reached the
    /// terminal). `-ie STAT` is refused, as lua5.4 refuses it (the statements
    /// were dropped and the run exited 0).
    @Test func usageErrorsAreBoundedAndEscapedAndMinusIJoinedIsRefused() throws {
        let big = String(repeating: "a", count: 100_000)
        for arguments in [["run", "--timeout", big, "x.lua"], ["test", "--seed", big, "."], ["check", "--\(big)", "x.lua"], [big + "\u{1B}[2J"]] {
            let result = try CommandRunner.factoryhost(arguments)
            #expect(result.status == 64, "\(result.stderr.prefix(200))")
            #expect(result.stderr.utf8.count < 4_500, "\(arguments.first ?? ""): \(result.stderr.utf8.count) bytes")
            #expect(!result.stderr.contains("\u{1B}"))
        }
        let escaped = try CommandRunner.factoryhost(["run", "--timeout", "\u{1B}]0;PWNED\u{07}\u{1B}[2J", "x.lua"])
        #expect(escaped.status == 64 && escaped.stderr.hasPrefix("Error: --timeout: '\\27]0;PWNED\\7\\27[2J' is not a duration"), "\(escaped)")
        let joined = try CommandRunner.factoryhost(["run", "-ie", "os.exit(5)", "-"], input: "print('ran')\n")
        #expect(joined == ProcessResult(status: 64, stdout: "",
                                        stderr: "factoryhost: unrecognized option '-ie' (as lua5.4: give -i apart, as -i -e STAT)\n"))
        // An empty joined value took the script as the value ("--set takes name=value (got 'x.lua')").
        for command in ["run", "check"] {
            let empty = try CommandRunner.factoryhost([command, "--set=", "x.lua"])
            #expect(empty == ProcessResult(status: 64, stdout: "", stderr: "factoryhost: --set= gives no value (write --set=name=value, or --set name=value)\n"))
        }
        // Joined -lMOD and -eSTAT where the parser reads the line (a `--`), as lua5.4 takes them.
        let parsed = try CommandRunner.factoryhost(["run", "-lstring", "-ex = 2", "--", "-"], input: "print(x * 21, string.rep('z', 2))\n")
        #expect(parsed == ProcessResult(status: 0, stdout: "42\tzz\n", stderr: ""))
    }

    @Test func memoryLimitStopsAnAllocatingScript() throws {
        let result = try CommandRunner.factoryhost(
            ["run", "--memory-limit", "16M", "-"],
            input: "local t = {}\nfor i = 1, 1e9 do t[i] = ('x'):rep(100) .. i end\n")
        #expect(result.status == 1)
        if ProcessInfo.processInfo.environment["FACTORYHOST_SANITIZER"] != nil {
            // Under ASan the allocator's redzones and quarantine double the
            // process's growth, so the process watch may end it first.
            #expect(result.stderr == "factoryhost: not enough memory\n" || result.stderr.contains("memory limit exceeded"))
        } else {
            #expect(result.stderr == "factoryhost: not enough memory\n")
        }
    }

    @Test func sandboxRefusesIoAndOsExecute() throws {
        let io = try CommandRunner.factoryhost(["run", "--sandbox", "-"], input: "io.write('x')\n")
        #expect(io.status == 1)
        #expect(io.stderr.hasPrefix("factoryhost: stdin:1: attempt to index a nil value (global 'io')\n"))
        let exec = try CommandRunner.factoryhost(["run", "--sandbox", "-"], input: "os.execute('true')\n")
        #expect(exec.stderr.hasPrefix("factoryhost: stdin:1: attempt to call a nil value (field 'execute')\n"))
        let ok = try CommandRunner.factoryhost(["run", "--sandbox", "-"], input: "print(('safe'):upper(), os.time() > 0)\n")
        #expect(ok == ProcessResult(status: 0, stdout: "SAFE\ttrue\n", stderr: ""))
    }

    @Test func sandboxedScriptRequiresOnlyModulesBesideIt() throws {
        let script = CommandRunner.fixtures.appendingPathComponent("modules/main.lua").path
        let ours = try CommandRunner.factoryhost(["run", "--sandbox", script], in: FileManager.default.temporaryDirectory)
        #expect(ours == ProcessResult(status: 0, stdout: "lib.util loaded\tsibling loaded\n", stderr: ""))
        let escape = try CommandRunner.factoryhost(["run", "--sandbox", "-"], input: "package.path = '/etc/?'\nrequire 'passwd'\n")
        #expect(escape.status == 1)
        #expect(escape.stderr.hasPrefix("factoryhost: stdin:2: module 'passwd' not found:"))
    }

    /// A link in the script's folder led `require` out of it: a file link
    /// (`conf.lua -> ../secrets.lua`) and a folder link both loaded what
    /// they pointed at. A link that stays inside is followed.
    @Test func sandboxedRequireFollowsNoLinkOutOfTheFolder() throws {
        let root = try CommandRunner.scratchDirectory([
            "secrets.lua": "password = 'hunter2'\nreturn 'secret'\n", "elsewhere/helper.lua": "return 'helper'\n",
            "sb/real/inner.lua": "return 'inner'\n",
            "sb/s.lua": """
                for _, name in ipairs { "conf", "mods.helper", "alias" } do print(name, pcall(require, name)) end
                print("leaked:", password)
                """,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let sb = root.appendingPathComponent("sb")
        try FileManager.default.createSymbolicLink(atPath: sb.appendingPathComponent("conf.lua").path, withDestinationPath: "../secrets.lua")
        try FileManager.default.createSymbolicLink(atPath: sb.appendingPathComponent("mods").path,
                                                   withDestinationPath: root.appendingPathComponent("elsewhere").path)
        try FileManager.default.createSymbolicLink(atPath: sb.appendingPathComponent("alias.lua").path, withDestinationPath: "real/inner.lua")
        let result = try CommandRunner.factoryhost(["run", "--sandbox", "sb/s.lua"], in: root, killAfter: 30)
        #expect(result.status == 0, "\(result)")
        let outside = "it is outside the script's folder (a link leads out of it), and untrusted code reads only files inside it"
        #expect(result.stdout == """
            conf\tfalse\terror loading module 'conf' from file 'sb/conf.lua': \(outside)
            mods.helper\tfalse\terror loading module 'mods.helper' from file 'sb/mods/helper.lua': \(outside)
            alias\ttrue\tinner\tsb/alias.lua
            leaked:\tnil

            """, "\(result)")
        // A module that is a FIFO blocked the run for ever (searching opened it): refused.
        #expect(mkfifo(sb.appendingPathComponent("pipe.lua").path, 0o644) == 0)
        let fifo = try CommandRunner.factoryhost(["run", "--sandbox", "-"], in: sb, input: "print(pcall(require, 'pipe'))\n", killAfter: 20)
        #expect(fifo == ProcessResult(status: 0, stdout: "false\terror loading module 'pipe' from file './pipe.lua': not a regular file, "
                                      + "and untrusted code reads only files\n", stderr: ""), "\(fifo)")
        // Trusted, links are followed as lua5.4 follows them.
        let trusted = try CommandRunner.factoryhost(["run", "sb/s.lua"], in: root, killAfter: 30)
        #expect(trusted.stdout.hasSuffix("leaked:\thunter2\n"), "\(trusted)")
    }

    @Test func sandboxRefusesBinaryScripts() throws {
        let lua = try #require(CommandRunner.stockLua)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fh-bin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let binary = dir.appendingPathComponent("compiled.luac").path
        _ = try CommandRunner.run(lua, ["-e", "local f = io.open('\(binary)', 'wb') f:write(string.dump(load('print(1)'))) f:close()"])
        let trusted = try CommandRunner.factoryhost(["run", binary])
        #expect(trusted == ProcessResult(status: 0, stdout: "1\n", stderr: ""))
        let sandboxed = try CommandRunner.factoryhost(["run", "--sandbox", binary])
        #expect(sandboxed.status == 1)
        #expect(sandboxed.stderr.contains("attempt to load a binary chunk (mode is 't')"))
    }

    @Test(arguments: [
        (["run", "--memory-limit", "lots", "x.lua"], "--memory-limit: 'lots' is not a size"),
        (["run", "--timeout", "0", "x.lua"], "--timeout: '0' is not a duration"),
        (["run"], "give a script to run (or -e STAT, or -i for the REPL)"),
        (["frobnicate"], "no command 'frobnicate'"),
    ])
    func badCommandLinesAreUsageErrors(arguments: [String], message: String) throws {
        let result = try CommandRunner.factoryhost(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result)")
    }

    @Test func versionAndHelp() throws {
        let version = try CommandRunner.factoryhost(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.split(separator: ".").count == 3)
        let help = try CommandRunner.factoryhost(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("run"))
        let runHelp = try CommandRunner.factoryhost(["run", "--help"])
        #expect(runHelp.stdout.contains("--memory-limit"))
        #expect(runHelp.stdout.contains("--sandbox"))
        #expect(runHelp.stdout.contains("--timeout"))
    }
}
