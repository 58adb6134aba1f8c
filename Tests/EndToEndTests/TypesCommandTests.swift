import Foundation
import Testing

/// `factoryhost types`, as an editor set-up runs it.
@Suite("factoryhost types")
struct TypesCommandTests {
    private func scratch(_ name: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("types-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// The definitions are Lua the stock interpreter compiles; the JSON
    /// parses, with a module per plugin; the luacheck standard is a chunk.
    @Test func eachFormatIsValid() throws {
        let luals = try CommandRunner.factoryhost(["types"])
        #expect(luals.status == 0, "\(luals)")
        #expect(luals.stdout.hasPrefix("---@meta factoryhost\n"))
        #expect(luals.stdout.contains("function factoryhost_networking_MovieLoader.new(cache, httpSession) end"))
        let lua = try #require(CommandRunner.stockLua, "lua5.4 is not installed; Scripts/install-deps.sh installs it")
        let compiled = try CommandRunner.run(lua, ["-e", "assert(load(io.read('a')))"], input: luals.stdout)
        #expect(compiled.status == 0, "\(compiled)")
        let standard = try CommandRunner.factoryhost(["types", "--format", "luacheck"])
        let read = try CommandRunner.run(lua, ["-e", "local t = assert(load(io.read('a')))() print(#t.read_globals, #t.spec.read_globals)"],
                                         input: standard.stdout)
        #expect(read.stdout == "12\t12\n", "\(read)")
        let json = try CommandRunner.factoryhost(["types", "--format", "json"])
        #expect(json.status == 0, "\(json)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let modules = try #require(object["modules"] as? [[String: Any]])
        #expect(modules.compactMap { $0["name"] as? String }.contains("factoryhost.networking"))
        let networking = try #require(modules.first { $0["name"] as? String == "factoryhost.networking" })
        let loader = try #require((networking["classes"] as? [[String: Any]])?.first { $0["name"] as? String == "MovieLoader" })
        let constructor = try #require(loader["constructor"] as? [String: Any])
        #expect((constructor["parameters"] as? [[String: String]])?.map { $0["type"] ?? "" } == ["Cache", "HTTPSession"])
    }

    /// The spec-file globals the definitions list are those the runner gives
    /// a spec file, beyond the DSL's and Lua's own.
    @Test func theSpecGlobalsAreTheRunnersGlobals() throws {
        let directory = try scratch("spec")
        defer { try? FileManager.default.removeItem(at: directory) }
        let plain = try CommandRunner.factoryhost(["run", "-"], input: "for k in pairs(_G) do print(k) end")
        let standard = try CommandRunner.factoryhost(["types", "--format", "luacheck"])
        try standard.stdout.write(to: directory.appendingPathComponent("std.lua"), atomically: true, encoding: .utf8)
        try """
            local plain, std = {}, dofile("std.lua")
            for name in io.lines("plain.txt") do plain[name] = true end
            for _, name in ipairs(std.read_globals) do plain[name] = true end
            it("lists", function()
              local extra = {}
              for k in pairs(_G) do if not plain[k] then extra[#extra + 1] = k end end
              table.sort(extra)
              local file = assert(io.open("extra.txt", "w")) file:write(table.concat(extra, " ")) file:close()
            end)
            """.write(to: directory.appendingPathComponent("globals_spec.lua"), atomically: true, encoding: .utf8)
        try plain.stdout.write(to: directory.appendingPathComponent("plain.txt"), atomically: true, encoding: .utf8)
        let result = try CommandRunner.factoryhost(["test", "globals_spec.lua"], in: directory)
        #expect(result.status == 0, "\(result)")
        let extra = try String(contentsOf: directory.appendingPathComponent("extra.txt"), encoding: .utf8)
        let spec = try CommandRunner.run(try #require(CommandRunner.stockLua, "lua5.4 is not installed"),
                                         ["-e", "print(table.concat(assert(load(io.read('a')))().spec.read_globals, ' '))"],
                                         input: standard.stdout)
        // `describe` is the DSL's too (a type's description outside spec files).
        #expect(extra == spec.stdout.trimmingCharacters(in: .newlines).split(separator: " ").filter { $0 != "describe" }.joined(separator: " "))
    }

    /// `--output DIR` writes a library: factoryhost.lua and a file per
    /// module naming it for `require`; directories on the way are made.
    @Test func outputWritesALibrary() throws {
        let directory = try scratch("output")
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("editor/types").path
        let result = try CommandRunner.factoryhost(["types", "--output", target])
        #expect(result.status == 0, "\(result)")
        // Said (it was silent): how many files, where, and what to do with them.
        let written = (try FileManager.default.subpathsOfDirectory(atPath: target)).filter { $0.hasSuffix(".lua") }.count
        #expect(result.stdout == "wrote \(written) files to \(target): a lua-language-server library "
                + "(add \"\(target)\" to workspace.library in .luarc.json)\n", "\(result)")
        let main = try String(contentsOfFile: target + "/factoryhost.lua", encoding: .utf8)
        #expect(main == (try CommandRunner.factoryhost(["types"])).stdout)
        let module = try String(contentsOfFile: target + "/factoryhost/networking.lua", encoding: .utf8)
        #expect(module.hasPrefix("---@meta factoryhost.networking\n"))
        #expect(module.contains("---@type factoryhost.networking\nlocal module = {}\nreturn module\n"))
    }

    /// Bad input: a usage error (64) names the option; a place that cannot
    /// be written is an error (1) naming it, never a crash.
    @Test func badInputIsAClearError() throws {
        let badFormat = try CommandRunner.factoryhost(["types", "--format", "nope"])
        #expect(badFormat.status == 64, "\(badFormat)")
        #expect(badFormat.stderr.contains("nope"), "\(badFormat)")
        let outputJSON = try CommandRunner.factoryhost(["types", "--format", "json", "--output", "/tmp/x"])
        #expect(outputJSON.status == 64, "\(outputJSON)")
        #expect(outputJSON.stderr.contains("--output writes a lua-language-server library"), "\(outputJSON)")
        let directory = try scratch("bad")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("a-file")
        try "x".write(to: file, atomically: true, encoding: .utf8)
        let blocked = try CommandRunner.factoryhost(["types", "--output", file.path + "/types"])
        #expect(blocked.status == 1, "\(blocked)")
        #expect(blocked.stderr.hasPrefix("factoryhost: cannot write \(file.path)"), "\(blocked)")
        #expect(blocked.stderr.contains("Not a directory"), "\(blocked)")
    }

    /// A symbolic link where the library goes (or on the way, below --output)
    /// is refused before anything is written: it made types write its
    /// definitions over what the link named (a source file).
    @Test func outputNeverWritesThroughALink() throws {
        let directory = try scratch("links")
        defer { try? FileManager.default.removeItem(at: directory) }
        let precious = directory.appendingPathComponent("precious.lua")
        try "keep me".write(to: precious, atomically: true, encoding: .utf8)
        let output = directory.appendingPathComponent("types")
        try FileManager.default.createDirectory(at: output.appendingPathComponent("factoryhost"), withIntermediateDirectories: true)
        for link in ["factoryhost/networking.lua", "factoryhost.lua"] {
            let place = output.appendingPathComponent(link).path
            try FileManager.default.createSymbolicLink(atPath: place, withDestinationPath: precious.path)
            let result = try CommandRunner.factoryhost(["types", "--output", output.path])
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr == "factoryhost: cannot write \(place): it is a symbolic link, and --output writes the library's "
                    + "own files (remove the link, or give another --output)\n", "\(result)")
            #expect(try String(contentsOf: precious, encoding: .utf8) == "keep me")
            try FileManager.default.removeItem(atPath: place)
        }
    }

    /// --output replaces only the library's own files: a user's file where
    /// one goes was replaced without a word, and a file where its folder
    /// goes failed half-way, leaving part of a library. Refused before
    /// anything is written; the library written before is written again.
    @Test func outputReplacesOnlyItsOwnFiles() throws {
        let directory = try scratch("foreign")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("types")
        let first = try CommandRunner.factoryhost(["types", "--output", output.path])
        #expect(first.status == 0, "\(first)")
        let again = try CommandRunner.factoryhost(["types", "--output", output.path])
        #expect(again.status == 0, "\(again)")
        let mine = "it is not a file factoryhost types wrote (it does not start with '---@meta factoryhost'), "
            + "and --output replaces only its own files (remove it, or give another --output)"
        for name in ["factoryhost.lua", "factoryhost/networking.lua"] {
            let place = output.appendingPathComponent(name)
            let before = try String(contentsOf: place, encoding: .utf8)
            try "print('important')\n".write(to: place, atomically: true, encoding: .utf8)
            let result = try CommandRunner.factoryhost(["types", "--output", output.path])
            #expect(result == ProcessResult(status: 1, stdout: "", stderr: "factoryhost: cannot write \(place.path): \(mine)\n"), "\(result)")
            #expect(try String(contentsOf: place, encoding: .utf8) == "print('important')\n")
            try before.write(to: place, atomically: true, encoding: .utf8)
        }
        // A file (the factoryhost binary, say) where the modules' folder goes: nothing written.
        let beside = directory.appendingPathComponent("beside")
        try FileManager.default.createDirectory(at: beside, withIntermediateDirectories: true)
        try "binary".write(to: beside.appendingPathComponent("factoryhost"), atomically: true, encoding: .utf8)
        let blocked = try CommandRunner.factoryhost(["types", "--output", beside.path])
        #expect(blocked.status == 1 && blocked.stderr.hasPrefix("factoryhost: cannot write \(beside.path)/factoryhost: it is not a folder"),
                "\(blocked)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: beside.path) == ["factoryhost"])
    }

    /// A Lua plugin that ends the process or loops is an error (1) naming
    /// it, in every command that loads plugins — never a silent success or
    /// a hang. Before: `types` printed nothing and exited 0 for the first,
    /// and `types`, `check` and `graph` hung on the second.
    @Test func misbehavingPluginsAreErrors() throws {
        let directory = try scratch("plugins")
        defer { try? FileManager.default.removeItem(at: directory) }
        func plugin(_ root: String, _ name: String, manifest: String? = nil, initLua: String) throws {
            let folder = directory.appendingPathComponent("\(root)/\(name)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try (manifest ?? "return { name = \"\(name)\", version = \"1.0\" }\n")
                .write(to: folder.appendingPathComponent("manifest.lua"), atomically: true, encoding: .utf8)
            try initLua.write(to: folder.appendingPathComponent("init.lua"), atomically: true, encoding: .utf8)
        }
        try plugin("exits", "quitter", initLua: "os.exit(0)\n")
        try plugin("loops", "spinner", initLua: "while true do end\n")
        try plugin("loopingManifest", "stuck", manifest: "while true do end\n", initLua: "\n")
        try "configuration \"app\" {}\n".write(to: directory.appendingPathComponent("app.lua"), atomically: true, encoding: .utf8)

        let exits = try CommandRunner.factoryhost(["types", "--plugin-path", "exits"], in: directory, killAfter: 30)
        #expect(exits.status == 1 && exits.stdout.isEmpty, "\(exits)")
        #expect(exits.stderr.contains("quitter/init.lua:1:") && exits.stderr.contains("os.exit(0)"), "\(exits)")

        for (root, place) in [("loops", "spinner/init.lua:1:"), ("loopingManifest", "stuck/manifest.lua:1:")] {
            let commands: [[String]] = [
                ["types", "--timeout", "0.5"],
                ["check", "--timeout", "0.5", "app.lua"],
                ["graph", "--timeout", "0.5", "--config", "app", "app.lua"],
                ["run", "--timeout", "0.5", "-e", "print(1)"],
            ]
            for command in commands {
                let result = try CommandRunner.factoryhost(command + ["--plugin-path", root], in: directory, killAfter: 30)
                #expect(result.status == 1 && !result.signalled, "\(command) \(root): \(result)")
                #expect(result.stderr.contains(place) && result.stderr.contains("time limit exceeded"), "\(command) \(root): \(result)")
            }
        }
        try "it('runs', function() end)\n".write(to: directory.appendingPathComponent("a_spec.lua"), atomically: true, encoding: .utf8)
        let test = try CommandRunner.factoryhost(["test", "a_spec.lua", "--timeout", "0.5", "--plugin-path", "loops"], in: directory, killAfter: 30)
        #expect(test.status == 1, "\(test)")
        #expect(test.stdout.contains("spinner/init.lua:1: time limit exceeded"), "\(test)")
    }

    /// A report that cannot be written is a failure: `types`, `check`,
    /// `graph` and `test` into a full device exit 1 and say so (before: 0,
    /// nothing said).
    @Test func anUnwritableReportIsAnError() throws {
        let directory = try scratch("full")
        defer { try? FileManager.default.removeItem(at: directory) }
        try "configuration \"app\" {}\n".write(to: directory.appendingPathComponent("app.lua"), atomically: true, encoding: .utf8)
        try "it('runs', function() end)\n".write(to: directory.appendingPathComponent("a_spec.lua"), atomically: true, encoding: .utf8)
        for command in ["types", "types --format json", "check app.lua", "graph --config app app.lua", "test a_spec.lua"] {
            let result = try CommandRunner.run("/bin/sh", ["-c", "exec \"$0\" \(command) > /dev/full", CommandRunner.factoryhost],
                                               in: directory, killAfter: 30)
            #expect(result.status == 1, "\(command): \(result)")
            #expect(result.stderr.hasPrefix("factoryhost: cannot write standard output: "), "\(command): \(result)")
        }
    }

    /// Plugins that Lua cannot stop (a C call that backtracks for ever, a
    /// finalizer that loops), plugins that print, read standard input or
    /// together outlast the limit, and one directory given twice — from the
    /// attack on the commands that load plugins. Before: the first hung
    /// types, check, graph and run -e past any --timeout; printing corrupted
    /// JSON; `check -` said ok of a script the plugin had read; five plugins
    /// of 0.9 s each passed a 1 s limit; the directory twice was "two
    /// plugins of one name".
    @Test func pluginsCannotOutliveTheLimitOrSpoilTheReport() throws {
        let directory = try scratch("plugins2")
        defer { try? FileManager.default.removeItem(at: directory) }
        func plugin(_ root: String, _ name: String, manifestPrefix: String = "", initLua: String) throws {
            let folder = directory.appendingPathComponent("\(root)/\(name)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try (manifestPrefix + "return { name = \"\(name)\", version = \"1.0\" }\n")
                .write(to: folder.appendingPathComponent("manifest.lua"), atomically: true, encoding: .utf8)
            try initLua.write(to: folder.appendingPathComponent("init.lua"), atomically: true, encoding: .utf8)
        }
        // (In init.lua: a manifest runs with no library at all, so it cannot get stuck in C.)
        try plugin("inC", "backtracks", initLua: "local s = (\"a\"):rep(5000); s:find(\".-.-.-.-.-b\")\n")
        try plugin("inFinalizer", "collects", initLua: "setmetatable({}, { __gc = function() while true do end end }) collectgarbage()\n")
        for index in 1...5 {
            try plugin("slow", "slow\(index)", initLua: "local t = os.clock() while os.clock() - t < 0.6 do end\n")
        }
        try plugin("prints", "chatty", initLua: "print('plugin output') io.write('more')\n")
        try plugin("reads", "reader", initLua: "local _ = io.read('a')\n")
        try "configuration \"app\" {}\n".write(to: directory.appendingPathComponent("app.lua"), atomically: true, encoding: .utf8)
        try "it('runs', function() end)\n".write(to: directory.appendingPathComponent("a_spec.lua"), atomically: true, encoding: .utf8)

        for root in ["inC", "inFinalizer", "slow"] {
            for command in [["types", "--timeout", "1"], ["check", "--timeout", "1", "app.lua"],
                            ["graph", "--timeout", "1", "--config", "app", "app.lua"], ["run", "--timeout", "1", "-e", "x = 1"]] {
                let result = try CommandRunner.factoryhost(command + ["--plugin-path", root], in: directory, killAfter: 30)
                #expect(result.status == 1 && !result.signalled, "\(command) \(root): \(result)")
                #expect(result.stderr.contains("time limit exceeded"), "\(command) \(root): \(result)")
                #expect(result.seconds < 1 + 1 + 2.5, "\(command) \(root) outlived its limit: \(result)")
                if root == "inC" {                      // stuck in C: the hard stop names the plugin (it named nothing)
                    #expect(result.stderr.contains("inC/backtracks/init.lua (loading the Lua plugin 'backtracks'): time limit exceeded"),
                            "\(command): \(result)")
                }
            }
        }
        let test = try CommandRunner.factoryhost(["test", "a_spec.lua", "--timeout", "1", "--plugin-path", "inC"], in: directory, killAfter: 30)
        #expect(test.status == 1 && test.seconds < 1 + 1 + 2.5, "\(test)")
        #expect(test.stdout.contains("loading the Lua plugins: inC/backtracks/init.lua (loading the Lua plugin 'backtracks'): time limit exceeded"), "\(test)")

        for command in [["types", "--format", "json"], ["check", "--format", "json", "app.lua"], ["graph", "--format", "json", "--config", "app", "app.lua"]] {
            let result = try CommandRunner.factoryhost(command + ["--plugin-path", "prints"], in: directory, killAfter: 30)
            #expect(result.status == 0, "\(command): \(result)")
            #expect((try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) != nil, "\(command) wrote no JSON: \(result)")
        }

        let fromInput = try CommandRunner.factoryhost(["check", "--plugin-path", "reads", "-"], in: directory,
                                                      input: "configuration \"c\" { register \"Nope\" {} }\n", killAfter: 30)
        #expect(fromInput.status == 1 && fromInput.stdout.contains("unknown type 'Nope'"), "\(fromInput)")

        // A script on standard input that never ends is under the limit too
        // (a writer holds the FIFO open, silent, for 8 s). Before: check hung.
        let fifo = try CommandRunner.run("/bin/sh", ["-c", """
            mkfifo in.fifo && { sleep 8 > in.fifo 2>/dev/null & writer=$!; }
            "$0" check --timeout 1 - < in.fifo; status=$?
            kill $writer; exit $status
            """, CommandRunner.factoryhost], in: directory, killAfter: 30)
        #expect(fifo.status == 1 && fifo.seconds < 1 + 2.5, "\(fifo)")
        #expect(fifo.stderr.contains("time limit exceeded (1.0 seconds) reading the script from standard input"), "\(fifo)")

        // A plugin reached through a link in another root is one plugin.
        let linked = directory.appendingPathComponent("linked")
        try FileManager.default.createDirectory(at: linked, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: linked.appendingPathComponent("chatty").path,
                                                   withDestinationPath: directory.appendingPathComponent("prints/chatty").path)
        let throughLink = try CommandRunner.factoryhost(["check", "--plugin-path", "prints:linked", "app.lua"], in: directory, killAfter: 30)
        #expect(throughLink.status == 0 && throughLink.stdout.hasPrefix("ok: 1 configuration"), "\(throughLink)")

        var environment = ProcessInfo.processInfo.environment
        environment["FACTORYHOST_PLUGIN_PATH"] = directory.appendingPathComponent("prints").path
        let twice = try CommandRunner.factoryhost(["check", "--plugin-path", "prints:prints", "app.lua"], in: directory,
                                                  environment: environment, killAfter: 30)
        #expect(twice.status == 0 && twice.stdout.hasPrefix("ok: 1 configuration"), "\(twice)")
    }
}
