import Foundation
import Testing

/// `factoryhost run x.lua args…` must behave exactly like `lua5.4 x.lua args…`:
/// same stdout, same stderr (the program-name prefix aside), same exit status.
@Suite("factoryhost run behaves like the stock lua5.4 interpreter")
struct RunMatchesStockLuaTests {
    static let compareDir = CommandRunner.fixtures.appendingPathComponent("compare")
    static let scripts: [String] = (try? FileManager.default.contentsOfDirectory(atPath: compareDir.path))?
        .filter { $0.hasSuffix(".lua") }.sorted() ?? []

    static let scriptArguments = ["a", "--flag", "two words", ""]
    static let input = "first line\nsecond line\n"

    @Test func fixturesArePresent() {
        #expect(Self.scripts.count >= 15)
    }

    @Test(arguments: scripts)
    func sameOutputAndStatusAsStockLua(script: String) throws {
        let lua = try #require(CommandRunner.stockLua, "lua5.4 is not installed; Scripts/install-deps.sh installs it")
        let stock = try CommandRunner.run(lua, [script] + Self.scriptArguments, in: Self.compareDir, input: Self.input)
        let ours = try CommandRunner.factoryhost(["run", script] + Self.scriptArguments, in: Self.compareDir, input: Self.input)
        var expected = stock
        expected.stderr = stock.stderr.replacingOccurrences(of: "\(lua): ", with: "factoryhost: ")
        #expect(ours == expected, "\(script)\n=== stock\n\(expected)\n=== factoryhost\n\(ours)")
    }

    @Test func scriptFromStandardInput() throws {
        let lua = try #require(CommandRunner.stockLua)
        let code = "print('from stdin', ...)\nprint(arg[0])\nerror('stdin failure')\n"
        let stock = try CommandRunner.run(lua, ["-", "x"], input: code)
        let ours = try CommandRunner.factoryhost(["run", "-", "x"], input: code)
        #expect(ours.stdout == stock.stdout)
        #expect(ours.status == stock.status)
        #expect(ours.stderr.hasPrefix("factoryhost: stdin:3: stdin failure\nstack traceback:"))
        #expect(ours.stdout == "from stdin\tx\n-\n")
    }

    @Test func requireFindsModulesBesideTheScriptFromAnyDirectory() throws {
        let script = CommandRunner.fixtures.appendingPathComponent("modules/main.lua").path
        let ours = try CommandRunner.factoryhost(["run", script], in: FileManager.default.temporaryDirectory)
        #expect(ours == ProcessResult(status: 0, stdout: "lib.util loaded\tsibling loaded\n", stderr: ""))
    }

    @Test func negativeArgIndicesHoldTheCommandLineBeforeTheScript() throws {
        let ours = try CommandRunner.factoryhost(["run", "--timeout", "5", "-", "x"],
                                                 input: "print(arg[-4] ~= nil, arg[-3], arg[-2], arg[-1], arg[0], arg[1], arg[-5])")
        #expect(ours.stdout == "true\trun\t--timeout\t5\t-\tx\tnil\n")
    }

    /// `run -i` and `repl` with a script set them too (they had arg[0] and up only).
    @Test func negativeArgIndicesHoldTheCommandLineBeforeAnInteractiveScript() throws {
        let dir = try CommandRunner.scratchDirectory([
            "run.lua": "print(arg[-3] ~= nil, arg[-2], arg[-1], arg[0], arg[1], arg[-4])",
            "repl.lua": "print(arg[-2] ~= nil, arg[-1], arg[0], arg[1], arg[-3])",
        ], prefix: "fh-arg")
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try CommandRunner.factoryhost(["run", "-i", "run.lua", "x"], in: dir, input: "")
        #expect(run.stdout.hasPrefix("true\trun\t-i\trun.lua\tx\tnil\n"), "\(run)")
        let repl = try CommandRunner.factoryhost(["repl", "repl.lua", "x"], in: dir, input: "")
        #expect(repl.stdout.hasPrefix("true\trepl\trepl.lua\tx\tnil\n"), "\(repl)")
    }

    @Test func missingScriptIsReportedLikeLua() throws {
        let ours = try CommandRunner.factoryhost(["run", "no-such-script.lua"])
        #expect(ours == ProcessResult(status: 1, stdout: "",
                                      stderr: "factoryhost: cannot open no-such-script.lua: No such file or directory\n"))
    }

    /// `-e` with no script runs LUA_INIT first and finalizers at the end, as
    /// lua5.4 does (neither ran).
    @Test func statementsWithoutAScriptRunLuaInitAndFinalizers() throws {
        let lua = try #require(CommandRunner.stockLua)
        let env = ["LUA_INIT": "init_ran = true"]
        let code = "x = setmetatable({}, { __gc = function() print('finalized') end }) print(init_ran)"
        let stock = try CommandRunner.run(lua, ["-e", code], environment: env)
        #expect(stock.stdout == "true\nfinalized\n", "\(stock)")
        for arguments in [["run", "-e", code], ["-e", code]] {
            let ours = try CommandRunner.factoryhost(arguments, environment: env)
            #expect(ours == stock, "\(arguments)")
        }
        let failing = try CommandRunner.factoryhost(["run", "-e", "x = setmetatable({}, { __gc = function() print('finalized') end }) error('no')"])
        #expect(failing.status == 1 && failing.stdout == "finalized\n", "\(failing)")
    }

    @Test func failingLuaInitIsReportedLikeStockLua() throws {
        let lua = try #require(CommandRunner.stockLua)
        let env = ["LUA_INIT": "error('bad init')"]
        let stock = try CommandRunner.run(lua, ["-"], input: "print('never')", environment: env)
        let ours = try CommandRunner.factoryhost(["run", "-"], input: "print('never')", environment: env)
        #expect(ours.status == stock.status)
        #expect(ours.stdout == stock.stdout)
        #expect(ours.stderr == stock.stderr.replacingOccurrences(of: "\(lua): ", with: "factoryhost: "))
    }

    @Test func luaInitRunsFirst() throws {
        let ours = try CommandRunner.factoryhost(["run", "-"], input: "print(PRELUDE)",
                                                 environment: ["LUA_INIT": "PRELUDE = 'from LUA_INIT'"])
        #expect(ours.stdout == "from LUA_INIT\n")
    }
}

/// Bytes that are not UTF-8 text reach the script as lua5.4 gives them
/// (attack 10: `CommandLine.arguments` made each such byte U+FFFD, three
/// bytes — `#arg[1]` was 3 for one byte — and a script so named "could not
/// be opened", naming a file that is not there).
@Suite("run passes bytes that are not text through, as lua5.4 does")
struct RunPassesBytesThroughTests {
    /// What `/bin/sh -c line` prints and its status, `@LUA@` in it being `program`
    /// (bytes spelled with printf's octal escapes).
    func shell(_ line: String, program: String, in dir: URL) throws -> String {
        let result = try CommandRunner.run("/bin/sh", ["-c", line.replacingOccurrences(of: "@LUA@", with: program)], in: dir, killAfter: 30)
        return result.stdout + result.stderr + "status \(result.status)"
    }

    @Test(arguments: [
        "@LUA@ a.lua \"$(printf 'x\\377')\"",                                      // an argument
        "@LUA@ -e \"$(printf 'print(#\"\\377\\376\")')\"",                       // a statement
        "LUA_INIT=\"$(printf 'print(#\"\\377\")')\" @LUA@ -e 'print(1)'",        // LUA_INIT
        "cp a.lua \"$(printf 's\\351.lua')\" && @LUA@ \"$(printf 's\\351.lua')\" y",   // the script's own name
    ])
    func bytesReachTheScriptAsLuaGivesThem(_ line: String) throws {
        let lua = try #require(CommandRunner.stockLua, "lua5.4 is not installed; Scripts/install-deps.sh installs it")
        let dir = try CommandRunner.scratchDirectory(["a.lua": "print(#arg[1], #arg[0], arg[1]:byte(-1))\n"], prefix: "fh-bytes-run")
        defer { try? FileManager.default.removeItem(at: dir) }
        let stock = try shell(line, program: "'\(lua)'", in: dir)
        let ours = try shell(line, program: "'\(CommandRunner.factoryhost)' run", in: dir)
        #expect(ours == stock, "\(ours) vs \(stock)")
        #expect(ours.hasSuffix("status 0"), "\(ours)")
    }
}

/// Where a word is read as text — an option's value, a module, a
/// configuration's name, the REPL's script, a plugin folder from the
/// environment, a value from an environment variable — bytes that are not
/// UTF-8 are refused, shown as `\xNN` (attack 11: each was looked for
/// repaired, so a folder, module, values file or configuration named U+FFFD
/// was used instead, in silence).
@Suite("Words read as text refuse bytes that are not")
struct WordsReadAsTextRefuseBytesTests {
    @Test(arguments: [
        ("'@FH@' run --values \"$(printf '\\377')/v.lua\" a.lua", "run: '\\xFF/v.lua' is not UTF-8 text"),
        ("'@FH@' run --config \"$(printf '\\377')\" a.lua", "run: '\\xFF' is not UTF-8 text"),
        ("'@FH@' run -l \"$(printf '\\377')\" -e ''", "run: '\\xFF' is not UTF-8 text"),
        ("'@FH@' run --set \"x=$(printf '\\377')\" a.lua", "run: 'x=\\xFF' is not UTF-8 text"),
        ("'@FH@' repl \"$(printf '\\377')/main.lua\" </dev/null", "repl: '\\xFF/main.lua' is not UTF-8 text"),
        ("FACTORYHOST_PLUGIN_PATH=\"$(printf '\\377')\" '@FH@' check a.lua", "FACTORYHOST_PLUGIN_PATH '\\xFF' is not UTF-8 text"),
        ("FHV=\"$(printf '\\377')\" '@FH@' run v.lua", "value 'x' from $FHV: '\\xFF' is not UTF-8 text"),
        ("FHV=\"$(printf '\\377')\" '@FH@' check v.lua", "value 'x' from $FHV: '\\xFF' is not UTF-8 text"),
    ])
    func aWordReadAsTextThatIsNotIsRefused(_ line: String, _ message: String) throws {
        let dir = try CommandRunner.scratchDirectory([
            "a.lua": "print('ran')\n",
            "v.lua": """
                value "x" { type = "string", env = "FHV", default = "d" }
                configuration "app" { register "table#t" { deps = { x = value "x" }, make = function(d) return {} end } }
                container("app"):resolve "table#t"
                """], prefix: "fh-bytes-text")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.run("/bin/sh", ["-c", line.replacingOccurrences(of: "@FH@", with: CommandRunner.factoryhost)],
                                           in: dir, killAfter: 30)
        #expect(result.status == 1 && !result.stdout.contains("ran"), "\(result)")
        #expect((result.stdout + result.stderr).contains(message), "\(result)")
    }
}
