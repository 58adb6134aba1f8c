import Foundation
import Testing

/// Inputs that are not files (#38): a FIFO nobody writes given as a spec
/// file, a values file of `test`, or a plugin's manifest or init.lua is
/// refused at once, by its path and kind — not a worker killed after 15 s
/// and blamed on a spec, `--list` ending with 124, or a plugin skipped.
@Suite("Inputs that are FIFOs are refused by name")
struct SpecialInputFilesTests {
    func directory(_ files: [String: String], fifos: [String]) throws -> URL {
        let dir = try CommandRunner.scratchDirectory(files, prefix: "fh-fifo")
        for fifo in fifos {
            let path = dir.appendingPathComponent(fifo).path
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            #expect(mkfifo(path, 0o644) == 0)
        }
        return dir
    }

    static let spec = "describe('a', function() it('x', function() end) end)\n"

    @Test(arguments: [["test", "f_spec.lua"], ["test", "--list", "f_spec.lua"], ["test", "."], ["test", "--list", "."]])
    func aSpecFileThatIsAFIFO(_ arguments: [String]) throws {
        let dir = try directory(["a_spec.lua": Self.spec], fifos: ["f_spec.lua"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.factoryhost(arguments, in: dir, killAfter: 20)
        #expect(result.status == 1 && result.seconds < 5, "\(result)")
        #expect(result.stderr.contains("f_spec.lua: not a regular file (a FIFO): a spec file must be a file"), "\(result)")
    }

    @Test func aValuesFileOfTestThatIsAFIFO() throws {
        let dir = try directory(["a_spec.lua": Self.spec], fifos: ["values.lua"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.factoryhost(["test", "--values", "values.lua", "a_spec.lua"], in: dir, killAfter: 20)
        #expect(result.status == 1 && result.seconds < 5, "\(result)")
        #expect(result.stderr.contains("--values values.lua: not a regular file (a FIFO)"), "\(result)")
        #expect(!result.stdout.contains("a_spec.lua"), "blamed on the spec: \(result)")
    }

    @Test(arguments: [("plugins/p/manifest.lua", "plugins/p/manifest.lua: not a regular file (a FIFO): a plugin's manifest must be a file"),
                      ("plugins/p/init.lua", "plugins/p/init.lua: not a regular file (a FIFO): plugin 'p' needs an init.lua file")])
    func aPluginFileThatIsAFIFO(_ fifo: String, _ message: String) throws {
        var files = ["s.lua": "print('ran')\n"]
        if fifo.hasSuffix("init.lua") { files["plugins/p/manifest.lua"] = "return { name = 'p', version = '1.0.0' }\n" }
        let dir = try directory(files, fifos: [fifo])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.factoryhost(["run", "--plugin-path", "plugins", "s.lua"], in: dir, killAfter: 20)
        #expect(result.status == 1 && result.seconds < 5, "\(result)")
        #expect(result.stderr.contains(message), "\(result)")
        #expect(!result.stdout.contains("ran"), "\(result)")
    }

    /// A manifest.lua or init.lua that is a directory is named as such (it is not a FIFO, but no file either).
    @Test(arguments: [("plugins/p/manifest.lua", "plugins/p/manifest.lua: not a regular file (a directory): a plugin's manifest must be a file"),
                      ("plugins/p/init.lua", "plugins/p/init.lua: not a regular file (a directory): plugin 'p' needs an init.lua file")])
    func aPluginFileThatIsADirectory(_ directoryPath: String, _ message: String) throws {
        var files = ["s.lua": "print('ran')\n"]
        if directoryPath.hasSuffix("init.lua") { files["plugins/p/manifest.lua"] = "return { name = 'p', version = '1.0.0' }\n" }
        let dir = try directory(files, fifos: [])
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent(directoryPath), withIntermediateDirectories: true)
        for command in ["run", "check"] {
            let result = try CommandRunner.factoryhost([command, "--plugin-path", "plugins", "s.lua"], in: dir, killAfter: 20)
            #expect(result.status == 1 && result.stderr.contains(message), "\(command): \(result)")
            #expect(!result.stdout.contains("ran"), "\(result)")
        }
    }

    /// A file that writes to the report descriptor while it is listed: its
    /// listing is refused, named, and the others are listed.
    @Test func aFileThatWritesToTheReportPipeWhileListed() throws {
        let dir = try directory(["a_spec.lua": Self.spec,
                                 "junk_spec.lua": "local f = io.open('/dev/fd/3', 'w') if f then f:write('garbage\\n') f:close() end\n" + Self.spec],
                                fifos: [])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.factoryhost(["test", "--list", "."], in: dir, killAfter: 20)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("a_spec.lua:1: a > x"), "\(result)")
        #expect((result.stdout + result.stderr).contains("junk_spec.lua: the worker process listing this file sent a report line that is not the protocol's"),
                "\(result)")
    }

    /// A spec below a path longer than the system allows (17 nested
    /// folders of 250 characters) cannot be run: the run fails naming it (it was skipped in
    /// silence, and a failing spec there left the run green).
    @Test(arguments: [["test", "."], ["test", "--list", "."]])
    func aSpecTooDeepToReachFailsTheRun(_ arguments: [String]) throws {
        let dir = try directory(["top_spec.lua": Self.spec], fifos: [])
        defer {
            let remove = Process()
            remove.executableURL = URL(fileURLWithPath: "/bin/rm")
            remove.arguments = ["-rf", dir.path]
            try? remove.run()
            remove.waitUntilExit()
        }
        // 17 folders of 250 characters (made relative to each other: a path that long cannot be named whole).
        var folder = open(dir.path, O_RDONLY | O_DIRECTORY)
        try #require(folder >= 0)
        let name = String(repeating: "d", count: 250)
        for _ in 0..<17 {
            try #require(mkdirat(folder, name, 0o755) == 0)
            let next = openat(folder, name, O_RDONLY | O_DIRECTORY)
            close(folder)
            folder = next
            try #require(folder >= 0)
        }
        let spec = openat(folder, "z_spec.lua", O_WRONLY | O_CREAT, 0o644)
        close(folder)
        try #require(spec >= 0)
        let text = Array("it('deep', function() error('deep fails') end)\n".utf8)
        #expect(write(spec, text, text.count) == text.count)
        close(spec)
        let result = try CommandRunner.factoryhost(arguments, in: dir, killAfter: 30)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("cannot be read (File name too long): the path is longer than the system allows"), "\(result)")
        #expect(result.stderr.utf8.count < 4096, "\(result.stderr.utf8.count) bytes")
    }

    @Test(arguments: ["check", "graph"])
    func aDeviceAsTheScriptOfCheckOrGraph(_ command: String) throws {
        // /dev/zero was read into memory until the process died (SIGABRT past 4 GB).
        let result = try CommandRunner.factoryhost([command, "--timeout", "5", "/dev/zero"], killAfter: 30)
        #expect(!result.signalled && result.status == 1 && result.seconds < 5, "\(result)")
        #expect(result.stderr.contains("/dev/zero gave more than 1 MB without ending (a device)"), "\(result)")
        let empty = try CommandRunner.factoryhost([command, "/dev/null"], killAfter: 30)
        #expect(!empty.stderr.contains("device"), "\(empty)")
    }

    /// A project file that is no file — a FIFO, a link to /dev/zero — was
    /// passed over in silence, and the user saw only "module 'm' not found".
    @Test(arguments: ["fifo", "device"])
    func aProjectFileThatIsNoFileIsNamed(_ kind: String) throws {
        let dir = try directory(["s.lua": "print(require 'm')\n", "m.lua": "return 'm'\n"], fifos: kind == "fifo" ? [".factoryhost.lua"] : [])
        defer { try? FileManager.default.removeItem(at: dir) }
        if kind == "device" {
            try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent(".factoryhost.lua").path, withDestinationPath: "/dev/zero")
        }
        let result = try CommandRunner.factoryhost(["run", "s.lua"], in: dir, killAfter: 20)
        #expect(result == ProcessResult(status: 1, stdout: "", stderr: "factoryhost: .factoryhost.lua: not a regular file ("
                                        + (kind == "fifo" ? "a FIFO" : "a device") + "): a project file must be a file\n"), "\(result)")
    }

    /// With standard input closed, the memory watchdog's /proc/self/statm
    /// became descriptor 0, and `run -` and the REPL read it as Lua
    /// ("stdin:1: unexpected symbol near '8081'"). A closed stream stays
    /// closed to what reads or writes it.
    @Test(arguments: [(["run", "--memory-limit", "64M", "-"], "factoryhost: cannot read stdin: Bad file descriptor\n", Int32(1)),
                      (["repl", "--memory-limit", "64M"], "", Int32(0))])
    func aClosedStandardInputIsNotAnInternalFile(_ arguments: [String], stderr: String, status: Int32) throws {
        let result = try CommandRunner.run("/bin/sh", ["-c", "exec \"$0\" \"$@\" <&-", CommandRunner.factoryhost] + arguments,
                                           killAfter: 30)
        #expect(result.status == status, "\(result)")
        #expect(stderr.isEmpty ? result.stderr.isEmpty : result.stderr.contains(stderr), "\(result)")
        #expect(!(result.stdout + result.stderr).contains("unexpected symbol"), "\(result)")
    }

    @Test(arguments: [["run"], ["repl", "--timeout", "1s"], ["check"], ["graph"]])
    func aValuesFileThatIsAFIFOEverywhere(_ command: [String]) throws {
        // The REPL blocked for ever (no whole-command deadline there).
        let dir = try directory(["s.lua": "configuration 'app' {}\n"], fifos: ["values.lua"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.factoryhost(command + ["--values", "values.lua", "s.lua"], in: dir, killAfter: 20)
        #expect(result.status == 1 && result.seconds < 5, "\(result)")
        #expect(result.stderr.contains("values file values.lua: not a regular file (a FIFO)"), "\(result)")
    }
}

/// Names that are not UTF-8 text (attack 10): a spec file or folder so
/// named was passed over in silence — String(cString:) made its bytes
/// U+FFFD, a path that names nothing — and a failing spec there left the
/// run green. It is refused, named with its bytes escaped.
@Suite("Spec files and folders whose names are not text are refused")
struct NamesThatAreNotTextTests {
    /// A scratch folder with `ok_spec.lua`, and what `shell` makes in it (names spelled with printf's octal escapes).
    func directory(making shell: String) throws -> URL {
        let dir = try CommandRunner.scratchDirectory(["spec/ok_spec.lua": "it('passes', function() end)\n"], prefix: "fh-bytes")
        #expect(try CommandRunner.run("/bin/sh", ["-c", shell], in: dir).status == 0)
        return dir
    }

    @Test(arguments: [
        ("printf 'it(\"fails\", function() error(\"boom\") end)\\n' > \"$(printf 'spec/caf\\351_spec.lua')\"",
         "factoryhost: spec/caf\\xE9_spec.lua: a spec file whose name is not UTF-8 text cannot be run: rename it\n"),
        ("mkdir \"$(printf 'spec/sub\\377dir')\" && printf 'it(\"fails\", function() error(\"boom\") end)\\n' > \"$(printf 'spec/sub\\377dir/x_spec.lua')\"",
         "factoryhost: spec/sub\\xFFdir: a folder whose name is not UTF-8 text cannot be run (nor the specs in it): rename it\n"),
    ])
    func aSpecOrFolderNamedWithBytesThatAreNotTextFailsTheRun(_ make: String, _ message: String) throws {
        let dir = try directory(making: make)
        defer { try? FileManager.default.removeItem(at: dir) }
        for arguments in [["test", "spec"], ["test", "--list", "spec"], ["test", "--junit", "j.xml", "spec"]] {
            let result = try CommandRunner.factoryhost(arguments, in: dir, killAfter: 30)
            #expect(result.status == 1 && result.stdout.isEmpty && result.stderr == message, "\(arguments): \(result)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("j.xml").path))
    }

    /// Named on the command line, such a path is refused by its bytes for
    /// every command that reads paths as text (it was "no such file", naming
    /// the repaired path: a file that is not there).
    @Test(arguments: ["test", "check", "graph", "types"])
    func aPathThatIsNotTextOnTheCommandLineIsRefusedByItsBytes(_ command: String) throws {
        let dir = try directory(making: "printf 'it(\"x\", function() end)\\n' > \"$(printf 'caf\\351_spec.lua')\"")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.run("/bin/sh", ["-c", "'\(CommandRunner.factoryhost)' \(command) \"$(printf 'caf\\351_spec.lua')\""],
                                           in: dir, killAfter: 30)
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(command): 'caf\\xE9_spec.lua' is not UTF-8 text"), "\(result)")
    }

    /// Other files so named are no spec's business.
    @Test func aPlainFileNamedWithBytesThatAreNotTextIsLeftAlone() throws {
        let dir = try directory(making: "printf 'x' > \"$(printf 'spec/notes\\351.txt')\"")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.factoryhost(["test", "spec"], in: dir, killAfter: 30)
        #expect(result.status == 0 && result.stdout.contains("1 passed"), "\(result)")
    }
}
