import Foundation
import Testing

/// Inputs that are plain data are read under bounds: a plugin manifest runs
/// at most 2 s in at most 16 MB (a looping one hung `run` and `repl`; a 3 GB
/// one was read whole and aborted the process under a memory cap), and
/// check and graph, which read a script whole, refuse one past 256 MB.
@Suite("Oversized and endless inputs are bounded")
struct OversizedInputsTests {
    @Test(arguments: ["run", "repl"])
    func aLoopingManifestIsStoppedAndNamed(_ command: String) throws {
        let dir = try CommandRunner.scratchDirectory(["plug/a/manifest.lua": "while true do end\n", "plug/a/init.lua": "",
                                                      "s.lua": "print('hi')\n"], prefix: "fh-manifest")
        defer { try? FileManager.default.removeItem(at: dir) }
        let started = Date()
        let result = try CommandRunner.factoryhost([command, "--plugin-path", "plug", "s.lua"], in: dir, input: "", killAfter: 20)
        #expect(result.status == 1 && result.stderr.contains("plug/a/manifest.lua: bad plugin manifest: plug/a/manifest.lua:1: time limit exceeded (2.0 seconds)"),
                "\(result)")
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test func aManifestPastItsMemoryIsRefused() throws {
        // (Small as a file: 600,000 empty tables, ~2 MB of text, take more than 16 MB.)
        let huge = "return { name = \"b\", version = \"1\", x = { " + String(repeating: "{},", count: 600_000) + " } }\n"
        let dir = try CommandRunner.scratchDirectory(["plug/b/manifest.lua": huge, "plug/b/init.lua": "", "s.lua": "print('hi')\n"],
                                                     prefix: "fh-manifest")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.factoryhost(["run", "--plugin-path", "plug", "s.lua"], in: dir, killAfter: 20)
        #expect(result.status == 1 && result.stderr.contains("plug/b/manifest.lua: bad plugin manifest: it took more than 16 MB"),
                "\(result)")
    }

    /// A manifest or project file past 16 MB is refused by its size, before
    /// Lua reads it (attack 13: a 20 GB sparse one after "--" was read by the
    /// parser with no limit looking, and `run` never ended).
    @Test func aHugeManifestOrProjectFileIsRefusedByItsSize() throws {
        let dir = try CommandRunner.scratchDirectory(["plug/hp/init.lua": "", "ok.lua": "print('ok')\n", "proj/ok.lua": "print('ok')\n"],
                                                     prefix: "fh-sparse")
        defer { try? FileManager.default.removeItem(at: dir) }
        for file in ["plug/hp/manifest.lua", "proj/.factoryhost.lua"] {
            let url = dir.appendingPathComponent(file)
            try Data("--".utf8).write(to: url)
            let handle = try FileHandle(forWritingTo: url)
            try handle.truncate(atOffset: 20 << 30)                 // sparse: nothing is written
            try handle.close()
        }
        let plugin = try CommandRunner.factoryhost(["run", "--plugin-path", "plug", "ok.lua"], in: dir, killAfter: 20)
        #expect(plugin.status == 1 && plugin.stderr.contains("plug/hp/manifest.lua: bad plugin manifest: it is 20480 MB, over 16 MB"), "\(plugin)")
        let project = try CommandRunner.factoryhost(["run", "proj/ok.lua"], in: dir, killAfter: 20)
        #expect(project.status == 1 && project.stderr.contains("project file proj/.factoryhost.lua: it is 20480 MB, over 16 MB"), "\(project)")
    }

    /// What a script writes to standard error under check and graph is
    /// bounded and escaped (attack 13: 10 MB went through whole, and an
    /// escape sequence reached the terminal raw).
    @Test(arguments: ["check", "graph"])
    func standardErrorInADryRunIsBoundedAndEscaped(_ command: String) throws {
        let dir = try CommandRunner.scratchDirectory(["s.lua": """
            io.stderr:write("a\\27]0;PWN\\7b\\n")
            io.output(io.stderr) io.write("c\\27[2J\\n")
            io.stderr:write(string.rep("x", 1e7))
            configuration "app" { register "table#t" { make = function() return {} end } }
            """], prefix: "fh-stderr")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.factoryhost(command == "graph" ? ["graph", "--config", "app", "s.lua"] : ["check", "s.lua"],
                                                   in: dir, killAfter: 30)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.hasPrefix("a\\x1B]0;PWN\\x07b\nc\\x1B[2J\nxxx") && !result.stderr.contains("\u{1B}"), "\(result.stderr.prefix(200))")
        #expect(result.stderr.utf8.count < 70_000
                && result.stderr.hasSuffix("[check and graph show at most 64 KB of what the script writes to standard error]\n"))
    }

    @Test(arguments: ["check", "graph"])
    func aScriptPastWhatCheckReadsIsRefused(_ command: String) throws {
        let dir = try CommandRunner.scratchDirectory([:], prefix: "fh-big")
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("big.lua").path
        #expect(FileManager.default.createFile(atPath: script, contents: nil) && truncate(script, 3 << 30) == 0)   // sparse
        let result = try CommandRunner.factoryhost([command, "big.lua"], in: dir, killAfter: 20)
        #expect(result.status == 1 && result.stderr.contains("big.lua is 3072 MB: a script is read whole, up to 256 MB"), "\(result)")
    }
}
