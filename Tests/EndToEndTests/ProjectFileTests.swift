import Foundation
import Testing

/// `.factoryhost.lua` marks a project's root: its modules are found from a
/// spec, script or REPL anywhere below it, whatever the working directory.
@Suite("a project file makes require work from any folder")
struct ProjectFileTests {
    /// shop/.factoryhost.lua, shop/lib/composition.lua, shop/spec/checkout_spec.lua, shop/tools/show.lua.
    static func makeProject(_ projectFile: String? = "return { modules = { \"lib\" } }\n") throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("fh-project-\(UUID().uuidString)/shop")
        for folder in ["lib", "spec", "tools"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        let files = [
            "lib/composition.lua": """
                configuration "app" {
                  register "table#clock" { scope = "singleton", make = function() return { now = 42 } end },
                }
                configuration "app-tests" { extends = "app" }
                """,
            "spec/checkout_spec.lua": """
                require "composition"
                describe("checkout", { config = "app-tests" }, function()
                  it("tells the time", function(c) expect(c:resolve("table#clock").now):to_equal(42) end)
                end)
                """,
            "tools/show.lua": "require \"composition\"\nprint(container(\"app\"):resolve(\"table#clock\").now)\n",
        ]
        for (path, text) in files { try text.write(to: root.appendingPathComponent(path), atomically: true, encoding: .utf8) }
        if let projectFile { try projectFile.write(to: root.appendingPathComponent(".factoryhost.lua"), atomically: true, encoding: .utf8) }
        return root
    }

    @Test func specsScriptsCheckAndTheREPLFindTheProjectsModulesFromAnyFolder() throws {
        let root = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        let spec = root.appendingPathComponent("spec")
        let inSpec = try CommandRunner.factoryhost(["test", "."], in: spec)
        #expect(inSpec.status == 0 && inSpec.stdout.hasSuffix("1 passed, 0 failed\n"), "\(inSpec)")
        let elsewhere = try CommandRunner.factoryhost(["test", "--jobs", "2", root.path], in: FileManager.default.temporaryDirectory)
        #expect(elsewhere.status == 0 && elsewhere.stdout.hasSuffix("1 passed, 0 failed\n"), "\(elsewhere)")
        let check = try CommandRunner.factoryhost(["check", "checkout_spec.lua"], in: spec)
        #expect(check == ProcessResult(status: 0, stdout: "ok: 2 configurations, 1 registration declared (2 with inherited ones), no problems\n", stderr: ""), "\(check)")
        let run = try CommandRunner.factoryhost(["run", root.appendingPathComponent("tools/show.lua").path], in: FileManager.default.temporaryDirectory)
        #expect(run == ProcessResult(status: 0, stdout: "42\n", stderr: ""), "\(run)")
        // The REPL started in a folder of the project, with no script; places are relative to where it runs.
        let repl = try CommandRunner.factoryhost(["repl"], in: spec, input: "require 'composition'\n:configs\n")
        #expect(repl.status == 0 && repl.stdout.contains("app — 1 registration, ../lib/composition.lua:1"), "\(repl)")
    }

    /// Plain `test` in a folder of the project that holds no specs (lib/,
    /// tools/) runs the project's, as from its root (it found none, #37).
    @Test func plainTestInAFolderWithoutSpecsRunsTheProjects() throws {
        let root = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        let fromLib = try CommandRunner.factoryhost(["test"], in: root.appendingPathComponent("lib"))
        #expect(fromLib.status == 0 && fromLib.stdout.hasPrefix("../spec/checkout_spec.lua\n")
                && fromLib.stdout.hasSuffix("1 passed, 0 failed\n"), "\(fromLib)")
        // Named paths are taken as given: an empty folder named is still an error.
        let named = try CommandRunner.factoryhost(["test", "."], in: root.appendingPathComponent("lib"))
        #expect(named.status == 1 && named.stderr.contains("no *_spec.lua files under ."), "\(named)")
        // Without a project file, nothing is searched above.
        let plain = try Self.makeProject(nil)
        defer { try? FileManager.default.removeItem(at: plain.deletingLastPathComponent()) }
        let outside = try CommandRunner.factoryhost(["test"], in: plain.appendingPathComponent("lib"))
        #expect(outside.status == 1 && outside.stderr.contains("no *_spec.lua files under ."), "\(outside)")
    }

    /// A folder below holding a Swift package of its own is another project
    /// (its own host runs its specs: Examples/shop): test passes it over, and
    /// runs it when it is named.
    @Test func aNestedPackageIsPassedOverUnlessNamed() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("fh-nested-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("shop/spec"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("// swift-tools-version: 6.0\n".utf8).write(to: root.appendingPathComponent("shop/Package.swift"))
        try Data("it('shop', function() end)\n".utf8).write(to: root.appendingPathComponent("shop/spec/shop_spec.lua"))
        try Data("it('top', function() end)\n".utf8).write(to: root.appendingPathComponent("top_spec.lua"))
        let all = try CommandRunner.factoryhost(["test", "."], in: root)
        #expect(all.status == 0 && all.stdout.hasPrefix("top_spec.lua\n") && all.stdout.hasSuffix("1 passed, 0 failed\n"), "\(all)")
        let named = try CommandRunner.factoryhost(["test", "shop"], in: root)
        #expect(named.status == 0 && named.stdout.hasPrefix("shop/spec/shop_spec.lua\n") && named.stdout.hasSuffix("1 passed, 0 failed\n"), "\(named)")
    }

    @Test func withoutAProjectFileOrInTheSandboxNothingChanges() throws {
        let bare = try Self.makeProject(nil)
        defer { try? FileManager.default.removeItem(at: bare.deletingLastPathComponent()) }
        let missing = try CommandRunner.factoryhost(["test", "."], in: bare.appendingPathComponent("spec"))
        #expect(missing.status == 1 && missing.stdout.contains("module 'composition' not found"), "\(missing)")
        let root = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        // Another user's project file (left in a shared folder, say) is passed over.
        if geteuid() == 0 {
            let file = root.appendingPathComponent(".factoryhost.lua").path
            #expect(chown(file, 12345, 12345) == 0)
            let foreign = try CommandRunner.factoryhost(["run", "tools/show.lua"], in: root)
            #expect(foreign.status == 1 && foreign.stderr.contains("module 'composition' not found"), "\(foreign)")
            #expect(chown(file, 0, 0) == 0)
        }
        // Untrusted code: a planted project file is not read.
        let sandboxed = try CommandRunner.factoryhost(["run", "--sandbox", "tools/show.lua"], in: root)
        #expect(sandboxed.status == 1 && sandboxed.stderr.contains("module 'composition' not found"), "\(sandboxed)")
    }

    @Test(arguments: [
        ("return 3", "project file ../.factoryhost.lua must return a table, as return { modules = { \".\", \"lib\" } }"),
        ("return { modlues = {} }", "project file ../.factoryhost.lua: unknown key \"modlues\", did you mean 'modules'? (it takes: modules)"),
        ("return { modules = 'lib' }", "project file ../.factoryhost.lua: 'modules' must be a list of folders, as { \".\", \"lib\" } (got string)"),
        ("return { modules = { 'a;b' } }",
         "project file ../.factoryhost.lua: 'modules' entry #1, \"a;b\", holds ';' or '?', which Lua's package.path reserves"),
        // Each with its own reason (invalid UTF-8 was "text without ';' or '?'").
        ("return { modules = { 'lib', '\\255' } }", "project file ../.factoryhost.lua: 'modules' entry #2, \"\\255\", is not UTF-8 text"),
        ("return { modules = { '' } }", "project file ../.factoryhost.lua: 'modules' entry #1, \"\", is empty"),
        ("return { modules = { true } }", "project file ../.factoryhost.lua: 'modules' entry #1 must be a folder's path, as \"lib\" (got boolean)"),
        // Keys of no list were passed over in silence; a file was "does not exist".
        ("return { modules = { lib = true } }",
         "project file ../.factoryhost.lua: 'modules' must be a list of folders, as { \".\", \"lib\" } (it has the key 'lib')"),
        ("return { modules = { [2] = 'lib' } }",
         "project file ../.factoryhost.lua: 'modules' must be a list of folders, as { \".\", \"lib\" } (it has the key [2])"),
        ("return { modules = { 'spec/checkout_spec.lua' } }",
         "project file ../.factoryhost.lua: module folder 'spec/checkout_spec.lua' is a file, not a folder"),
        ("while true do end", "project file ../.factoryhost.lua: ../.factoryhost.lua:1: time limit exceeded"),
        ("return {", "project file ../.factoryhost.lua: ../.factoryhost.lua:1: unexpected symbol near <eof>"),
        ("return { modules = { 'lib' }, [1] = 'x' }", "project file ../.factoryhost.lua: unknown key [1] (it takes: modules)"),
        ("local t = {} for i = 1, 300 do t[i] = 'd' .. i end return { modules = t }",
         "project file ../.factoryhost.lua: 'modules' lists 300 folders (at most 256)"),
        ("return os.exit(0)", "project file ../.factoryhost.lua: ../.factoryhost.lua:1: attempt to index a nil value (global 'os')"),
        ("return { modules = { 'lbi' } }",
         "project file ../.factoryhost.lua: module folder 'lbi' does not exist, did you mean 'lib'? (folders: lib, spec, tools)"),
        // A newline in the name is written, not a line of its own.
        ("return { modules = { 'a\\nforged.lua:9: no registration' } }",
         "project file ../.factoryhost.lua: module folder 'a\\nforged.lua:9: no registration' does not exist"),
    ])
    func aBadProjectFileIsAnErrorNamingIt(text: String, message: String) throws {
        let root = try Self.makeProject(text)
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        let check = try CommandRunner.factoryhost(["check", "checkout_spec.lua"], in: root.appendingPathComponent("spec"))
        #expect(check.status == 1 && check.stdout.hasPrefix(message), "\(check)")
        let run = try CommandRunner.factoryhost(["run", "show.lua"], in: root.appendingPathComponent("tools"))
        #expect(run.status == 1 && run.stderr.hasPrefix("factoryhost: " + message), "\(run)")
    }
}
