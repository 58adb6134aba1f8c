import Foundation
import Testing

/// `--junit` and `--coverage-json` (#38): outputs that would collide with
/// each other or with a spec being run are refused, and a report is written
/// whole or not at all — the previous run's goes as the run begins.
@Suite("Report files are refused where they collide, and written whole")
struct ReportFilesTests {
    func directory(_ files: [String: String]) throws -> URL { try CommandRunner.scratchDirectory(files, prefix: "fh-reports") }

    static let spec = "describe('d', function() it('passes', function() end) end)\n"

    @Test func twoReportsOnOneFileAreRefused() throws {
        let dir = try directory(["a_spec.lua": Self.spec])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.factoryhost(["test", "--junit", "out.xml", "--coverage-json", "./out.xml", "a_spec.lua"], in: dir)
        #expect(result.status != 0, "\(result)")
        #expect(result.stderr.contains("--junit and --coverage-json name the same file (out.xml): one report would be lost"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.xml").path))
        // Also through a link to the file when it is not there yet (the JUnit report was lost, status 0).
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("link.xml").path, withDestinationPath: "out.xml")
        let linked = try CommandRunner.factoryhost(["test", "--junit", "out.xml", "--coverage-json", "link.xml", "a_spec.lua"], in: dir)
        #expect(linked.status != 0 && linked.stderr.contains("name the same file"), "\(linked)")
    }

    /// Reports that cannot be written are each said before the run (attack 9:
    /// the coverage file's folder was found missing after the whole run, and
    /// the JUnit file's not at all); nothing runs, and no probe file is left.
    @Test func reportsThatCannotBeWrittenAreSaidBeforeTheRun() throws {
        let dir = try directory(["a_spec.lua": "describe('d', function() it('runs', function() io.open('ran', 'w'):close() end) end)\n",
                                 "afile": ""])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.factoryhost(["test", "a_spec.lua", "--junit", "missing/dir/j.xml", "--coverage-json", "afile/c.json"], in: dir)
        #expect(result.status == 1 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr == """
            factoryhost: --junit: cannot write missing/dir/j.xml: its folder missing/dir does not exist
            factoryhost: --coverage-json: cannot write afile/c.json: afile is not a folder

            """, "\(result)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("ran").path))
        let fine = try CommandRunner.factoryhost(["test", "a_spec.lua", "--junit", "j.xml"], in: dir)
        #expect(fine.status == 0, "\(fine)")
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(left == ["a_spec.lua", "afile", "j.xml", "ran"], "\(left)")
    }

    /// The report's temporary file is made anew under a name no one can
    /// guess (attack 11: `out.xml.partial-<runner pid>` was opened with
    /// O_TRUNC and no O_EXCL, so a link planted there while the run went on
    /// had the report written over what it named).
    @Test func aLinkPlantedWhereTheReportIsWrittenFirstIsNotFollowed() throws {
        let dir = try directory(["slow_spec.lua": "describe('d', function() it('waits', function() os.execute('sleep 1') end) end)\n",
                                 "victim.txt": "keep me\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandRunner.factoryhost)
        process.arguments = ["test", "slow_spec.lua", "--junit", "out.xml"]
        process.currentDirectoryURL = dir
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("out.xml.partial-\(process.processIdentifier)").path,
                                                   withDestinationPath: "victim.txt")
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(try String(contentsOf: dir.appendingPathComponent("victim.txt"), encoding: .utf8) == "keep me\n")
        let report = try String(contentsOf: dir.appendingPathComponent("out.xml"), encoding: .utf8)
        #expect(report.hasPrefix("<?xml"), "\(report)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: dir.appendingPathComponent("out.xml").path)) == nil)
    }

    @Test func aReportOverASpecBeingRunIsRefusedAndTheSpecKept() throws {
        let dir = try directory(["a_spec.lua": Self.spec])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.factoryhost(["test", "--junit", "a_spec.lua", "."], in: dir)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("--junit a_spec.lua is a file this run reads: writing the report there would destroy it"), "\(result)")
        #expect(try String(contentsOf: dir.appendingPathComponent("a_spec.lua"), encoding: .utf8) == Self.spec)
        let directoryReport = try CommandRunner.factoryhost(["test", "--coverage-json", ".", "a_spec.lua"], in: dir)
        #expect(directoryReport.stderr.contains("--coverage-json: . is a directory; give a file path"), "\(directoryReport)")
    }

    @Test func anInterruptedRunLeavesNoReportPassingAsItsOwn() throws {
        let dir = try directory(["slow_spec.lua": """
            describe('d', function()
              it('takes its time', function() local t = os.clock() while os.clock() - t < 3 do end end)
            end)
            """])
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = dir.appendingPathComponent("junit.xml")
        try Data("<testsuites tests=\"1\" failures=\"0\"/>\n".utf8).write(to: report)   // the previous run's, green
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandRunner.factoryhost)
        process.arguments = ["test", "--timeout", "10", "--junit", "junit.xml", "slow_spec.lua"]
        process.currentDirectoryURL = dir
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        usleep(1_000_000)
        kill(process.processIdentifier, SIGKILL)                 // interrupted, as a CI job may be
        process.waitUntilExit()
        #expect(!FileManager.default.fileExists(atPath: report.path), "the previous run's report is still there")
        // And a run that ends writes it whole, with no temporary file left.
        // (3 s of CPU time: under the default 5 s limit it failed when the whole suite loaded the machine.)
        let finished = try CommandRunner.factoryhost(["test", "--timeout", "30", "--junit", "junit.xml", "slow_spec.lua"], in: dir, killAfter: 60)
        #expect(finished.status == 0, "\(finished)")
        #expect(try String(contentsOf: report, encoding: .utf8).contains("tests=\"1\" failures=\"0\""))
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".partial") }
        #expect(left.isEmpty, "\(left)")
    }

    /// Only a plain file is replaced by a rename: a symbolic link (or a device,
    /// /dev/full, which a rename replaced with a file) is written into.
    @Test func aLinkOrADeviceIsWrittenIntoNotReplaced() throws {
        let dir = try directory(["a_spec.lua": Self.spec])
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("report.xml").path, withDestinationPath: "real.xml")
        let result = try CommandRunner.factoryhost(["test", "--junit", "report.xml", "a_spec.lua"], in: dir)
        #expect(result.status == 0, "\(result)")
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: dir.appendingPathComponent("report.xml").path)
        #expect(link == "real.xml")
        #expect(try String(contentsOf: dir.appendingPathComponent("real.xml"), encoding: .utf8).contains("<testsuites"))
        var info = stat()
        #expect(stat("/dev/full", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR, "/dev/full is no longer a device")
    }

    /// A report over an executable — the factoryhost the workers start from,
    /// or another program — is refused: renamed over the binary, it ended the
    /// run ("cannot start a worker process … (deleted)") and lost the program.
    @Test func aReportOverAnExecutableIsRefusedAndTheProgramKept() throws {
        let dir = try directory(["a_spec.lua": Self.spec, "tool": "#!/bin/sh\necho hi\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let tool = dir.appendingPathComponent("tool").path
        #expect(chmod(tool, 0o755) == 0)
        let result = try CommandRunner.factoryhost(["test", "--junit", "tool", "a_spec.lua"], in: dir)
        #expect(result.status == 1 && result.stderr.contains("--junit tool is an executable"), "\(result)")
        #expect(try String(contentsOfFile: tool, encoding: .utf8) == "#!/bin/sh\necho hi\n")
        // The running factoryhost by another name (a hard link: no copy being written, which a
        // parallel fork could keep open — "Text file busy"; a rename over the name leaves the binary).
        let other = dir.appendingPathComponent("fh").path
        if link(CommandRunner.factoryhost, other) == 0 {
            let size = try FileManager.default.attributesOfItem(atPath: other)[.size] as? Int
            let own = try CommandRunner.factoryhost(["test", "--coverage-json", "fh", "a_spec.lua"], in: dir)
            #expect(own.status == 1 && own.stderr.contains("--coverage-json fh is an executable"), "\(own)")
            #expect(try FileManager.default.attributesOfItem(atPath: other)[.size] as? Int == size)
        }
    }

    /// A report that is the run's own standard output (/dev/stdout, or the
    /// file the shell's `>` writes) replaced the text report, exit 0.
    @Test func aReportOnStandardOutputIsRefused() throws {
        let dir = try directory(["a_spec.lua": Self.spec])
        defer { try? FileManager.default.removeItem(at: dir) }
        let status = try ProcessTreeTests.runInShell("cd '\(dir.path)' && exec '\(CommandRunner.factoryhost)' test --junit out.txt "
                                                     + "a_spec.lua > out.txt 2> err.txt", killAfter: 30)
        let err = (try? String(contentsOf: dir.appendingPathComponent("err.txt"), encoding: .utf8)) ?? ""
        #expect(status == 1 && err.contains("--junit out.txt is this run's standard output"), "\(status): \(err)")
        let viaDevice = try ProcessTreeTests.runInShell("cd '\(dir.path)' && exec '\(CommandRunner.factoryhost)' test --coverage-json "
                                                        + "/dev/stderr a_spec.lua > out2.txt 2> err2.txt", killAfter: 30)
        let err2 = (try? String(contentsOf: dir.appendingPathComponent("err2.txt"), encoding: .utf8)) ?? ""
        #expect(viaDevice == 1 && err2.contains("--coverage-json /dev/stderr is this run's standard error"), "\(viaDevice): \(err2)")
    }

    @Test func aReportOverAModuleAValuesFileOrAFIFOIsRefused() throws {
        let dir = try directory(["a_spec.lua": Self.spec, "helper.lua": "return {}\n", "values.lua": "return {}\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let module = try CommandRunner.factoryhost(["test", "--junit", "helper.lua", "a_spec.lua"], in: dir)
        #expect(module.status == 1 && module.stderr.contains("--junit helper.lua is a Lua file"), "\(module)")
        let values = try CommandRunner.factoryhost(["test", "--values", "values.lua", "--coverage-json", "./values.lua", "a_spec.lua"], in: dir)
        #expect(values.status == 1 && values.stderr.contains("is a file this run reads"), "\(values)")
        // Through a link: a report is written into a link, so the link's target is what counts.
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("report.xml.link").path, withDestinationPath: "helper.lua")
        let linked = try CommandRunner.factoryhost(["test", "--junit", "report.xml.link", "a_spec.lua"], in: dir)
        #expect(linked.status == 1 && linked.stderr.contains("--junit report.xml.link is a Lua file (a module, the project file?), through a link"), "\(linked)")
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("dangling.xml").path, withDestinationPath: "new.lua")
        let dangling = try CommandRunner.factoryhost(["test", "--coverage-json", "dangling.xml", "a_spec.lua"], in: dir)
        #expect(dangling.status == 1 && dangling.stderr.contains("through a link"), "\(dangling)")
        #expect(try String(contentsOf: dir.appendingPathComponent("helper.lua"), encoding: .utf8) == "return {}\n")
        #expect(try String(contentsOf: dir.appendingPathComponent("values.lua"), encoding: .utf8) == "return {}\n")
        #expect(mkfifo(dir.appendingPathComponent("report.xml").path, 0o600) == 0)
        let fifo = try CommandRunner.factoryhost(["test", "--junit", "report.xml", "a_spec.lua"], in: dir, killAfter: 20)
        #expect(!fifo.signalled && fifo.status == 1, "\(fifo)")
        #expect(fifo.stderr.contains("it is a FIFO nobody reads"), "\(fifo)")
    }
}

/// A test's whole name is bounded where it is shown (attack 11: each
/// describe's name was cut, but 150 nested ones made report lines of 41 KB
/// in text, TAP and JUnit, 82 KB in JSON, and `--list` printed 41 KB).
@Suite("Long nested names are bounded in every report")
struct LongNestedNamesTests {
    @Test(arguments: [["--format", "text"], ["--format", "tap"], ["--format", "json"], ["--list"], ["--junit", "j.xml"]])
    func everyReportLineStaysUnderAboutFourKilobytes(_ options: [String]) throws {
        let part = String(repeating: "n", count: 1_000)
        let spec = String(repeating: "describe('\(part)', function()\n", count: 40) + "it('fails', function() error('boom') end)\n"
            + String(repeating: "end)\n", count: 40)
        let dir = try CommandRunner.scratchDirectory(["long_spec.lua": spec], prefix: "fh-long-names")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.factoryhost(["test"] + options + ["long_spec.lua"], in: dir, killAfter: 60)
        var text = result.stdout + result.stderr
        if options.first == "--junit" { text += try String(contentsOf: dir.appendingPathComponent("j.xml"), encoding: .utf8) }
        let longest = text.split(separator: "\n").map(\.utf8.count).max() ?? 0
        #expect(longest < 4_600, "\(options): a line of \(longest) bytes")
        #expect(text.contains("bytes left out") || text.contains("describes left out"), "\(options)")
    }
}
