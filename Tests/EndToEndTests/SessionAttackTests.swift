import Foundation
import Testing

/// What an attack on this round's features found (#36, #37), each failing before its fix.
@Suite("The names, check, REPL and runner features under attack")
struct SessionAttackTests {
    func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fh-attack-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// check of thousands of missing dependencies among thousands of
    /// registrations is linear (it re-read the file, and re-sorted every key,
    /// per problem: 4,000 problems took over a minute), and one key named
    /// twice in a registration is pointed at each of its lines.
    @Test func manyMissingDependenciesAreFoundQuicklyEachAtItsLine() throws {
        var lines = ["interface \"Missing\" { \"x\" }", "configuration \"app\" {"]
        lines += (0..<20_000).map { "  register \"table#r\($0)\" { make = function() return {} end }," }
        lines += (0..<2_000).map { "  register \"table#m\($0)\" {\n    deps = {\n      a = \"Missing\",\n      b = \"Missing\" }, make = function() return {} end }," }
        let started = Date()
        let result = try CommandRunner.factoryhost(["check", "-"], input: (lines + ["}"]).joined(separator: "\n"), killAfter: 60)
        #expect(Date().timeIntervalSince(started) < 30, "check took \(Date().timeIntervalSince(started)) s")   // (a guard against the hang, not a benchmark)
        #expect(result.status == 1 && result.stdout.hasSuffix("4000 problems in 1 configuration, 22000 registrations\n"), "\(result.stdout.suffix(200))")
        #expect(result.stdout.hasPrefix("""
            stdin:20005: no registration for Missing in configuration 'app'
              required by table#m0 as a: Missing
              table#m0 registered at stdin:20003
            stdin:20006: no registration for Missing in configuration 'app'
              required by table#m0 as b: Missing
            """), "\(result.stdout.prefix(400))")
    }

    /// A test without a config: plain resolve is refused as c:resolve is (it
    /// built the only configuration's container behind the test, never closed).
    @Test func aTestWithoutAConfigHasNoHiddenContainer() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("""
            configuration "app" { register "table#s" { scope = "singleton", make = function() return {} end } }
            it("resolves without a config", function() resolve "table#s" end)
            """.utf8).write(to: dir.appendingPathComponent("plain_spec.lua"))
        let result = try CommandRunner.factoryhost(["test", "."], in: dir)
        #expect(result.status == 1 && result.stdout.contains("plain_spec.lua:2: resolve needs a configuration"), "\(result)")
    }

    /// A plugin's names revealed by one test's require are gone in the next
    /// test of the same file, as its package.loaded entry is; a stub takes the
    /// qualified name the messages suggest.
    @Test func pluginNamesDoNotLeakBetweenTestsAndStubsTakeQualifiedNames() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("""
            describe("order", function()
              it("requires the plugin", function() require "factoryhost.networking" end)
              it("declares its own Cache", function() interface "Cache" { "get" } end)
              it("stubs a qualified interface", function() expect(stub "session.AuthRemoteAPI" {}.signIn):to_be_truthy() end)
            end)
            """.utf8).write(to: dir.appendingPathComponent("names_spec.lua"))
        let result = try CommandRunner.factoryhost(["test", "."], in: dir)
        #expect(result.status == 0 && result.stdout.hasSuffix("3 passed, 0 failed\n"), "\(result)")
    }

    /// A scripted REPL session whose :check finds problems fails (exit 0 before).
    @Test func aPipedCheckThatFindsProblemsFails() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("configuration 'app' { register 'table#a' { deps = { b = 'table#b' }, make = print } }\n".utf8)
            .write(to: dir.appendingPathComponent("app.lua"))
        let result = try CommandRunner.factoryhost(["repl", "app.lua"], in: dir, input: ":check\n")
        #expect(result.status == 1 && result.stdout.contains("1 problem in 1 configuration"), "\(result)")
    }

    /// check reads a file starting with a UTF-8 byte order mark as run and lua5.4 do.
    @Test func checkSkipsAByteOrderMark() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data([0xEF, 0xBB, 0xBF] + Array("configuration 'app' { register 'table#a' { make = function() return {} end } }\n".utf8))
            .write(to: dir.appendingPathComponent("bom.lua"))
        let result = try CommandRunner.factoryhost(["check", "bom.lua"], in: dir)
        #expect(result == ProcessResult(status: 0, stdout: "ok: 1 configuration, 1 registration, no problems\n", stderr: ""), "\(result)")
    }

    /// :reload sees a changed local that make closes over, and does not see a
    /// change in a parameter holding a C closure (a new one each run).
    @Test func reloadComparesWhatMakeClosesOverAndNotCClosuresAddresses() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = """
            local url = "http://old"
            configuration "app" {
              register "table#a" { params = { next = coroutine.wrap(function() end), out = print }, make = function() return { url = url } end },
            }
            """
        try Data(script.utf8).write(to: dir.appendingPathComponent("live.lua"))
        try Data(script.replacingOccurrences(of: "old", with: "new").utf8).write(to: dir.appendingPathComponent("next.lua"))
        let input = """
            :reload
            local f = io.open("next.lua") local text = f:read("a") f:close() f = io.open("live.lua", "w") f:write(text) f:close()
            :reload
            """
        let result = try CommandRunner.factoryhost(["repl", "live.lua"], in: dir, input: input + "\n")
        #expect(result.stdout == """
            reloaded live.lua (the prompt's locals and globals went with the old host: resolve again)
            no registration changed
            reloaded live.lua (the prompt's locals and globals went with the old host: resolve again)
            changed: app: table#a (make's body)

            """, "\(result)")
    }

    /// The host's own types are named factoryhost.X (the plain name is the user's).
    @Test func theHostsOwnTypesSayTheirQualifiedName() throws {
        let result = try CommandRunner.factoryhost(["check", "-"], input: "configuration 'a' { register 'Container' { make = print } }\n")
        #expect(result.stdout.hasPrefix("""
            stdin:1: unknown type 'Container': factoryhost's own Container is "factoryhost.Container" \
            (the plain name is free for a type of your own: interface "Container" { … })
            """), "\(result)")
    }
}
