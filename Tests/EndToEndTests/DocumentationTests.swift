import Foundation
import Testing

/// Runs every snippet of docs/ScriptDSL.md through the built `factoryhost`,
/// as a reader would, and compares what it prints with the page:
/// - a `lua` block starting `-- file: path` is written to that path;
/// - any other `lua` block runs (`factoryhost run -`), and the `text` block
///   after it is its output — standard output, or for a block starting
///   `factoryhost: `, the error message (before its traceback) and status 1;
/// - a `console` block runs its `$ factoryhost …` line and shows its output.
@Suite("docs/ScriptDSL.md: every snippet runs as shown")
struct DocumentationTests {
    struct Block { let language: String; let text: String; let line: Int }

    static func blocks(of path: URL) throws -> [Block] {
        let lines = try String(contentsOf: path, encoding: .utf8).components(separatedBy: "\n")
        var blocks: [Block] = [], current: [String]? = nil, language = "", start = 0
        for (index, line) in lines.enumerated() {
            if current == nil, line.hasPrefix("```"), line.count > 3 {
                language = String(line.dropFirst(3))
                current = []
                start = index + 1
            } else if current != nil, line == "```" {
                blocks.append(Block(language: language, text: current!.joined(separator: "\n"), line: start))
                current = nil
            } else if current != nil {
                current!.append(line)
            }
        }
        return blocks
    }

    @Test func everySnippetRunsAsShown() throws {
        let page = CommandRunner.packageRoot.appendingPathComponent("docs/ScriptDSL.md")
        let blocks = try Self.blocks(of: page)
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("fh-docs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        var ran = 0
        for (index, block) in blocks.enumerated() {
            let next = index + 1 < blocks.count ? blocks[index + 1] : nil
            switch block.language {
            case "lua" where block.text.hasPrefix("-- file: "):
                let firstLine = block.text.prefix { $0 != "\n" }
                let path = work.appendingPathComponent(String(firstLine.dropFirst("-- file: ".count)))
                try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(block.text.utf8).write(to: path)
            case "lua":
                let expected = try #require(next.flatMap { $0.language == "text" ? $0.text : nil },
                                            "the lua block at line \(block.line) has no text block with its output")
                var arguments = ["run"]
                if FileManager.default.fileExists(atPath: work.appendingPathComponent("plugins").path) {
                    arguments += ["--plugin-path", "plugins"]
                }
                let result = try CommandRunner.factoryhost(arguments + ["-"], in: work, input: block.text + "\n")
                if expected.hasPrefix("factoryhost: ") {
                    #expect(result.status == 1, "snippet at line \(block.line)")
                    #expect(result.stderr.components(separatedBy: "\nstack traceback:")[0] == expected, "snippet at line \(block.line)")
                } else {
                    #expect(result == ProcessResult(status: 0, stdout: expected + "\n", stderr: ""), "snippet at line \(block.line)")
                }
                ran += 1
            case "console":
                var lines = block.text.components(separatedBy: "\n")
                let command = lines.removeFirst()
                #expect(command.hasPrefix("$ factoryhost "), "console block at line \(block.line)")
                let arguments = command.dropFirst("$ factoryhost ".count).split(separator: " ").map(String.init)
                let result = try CommandRunner.factoryhost(arguments, in: work)
                #expect(result.stdout + result.stderr == lines.joined(separator: "\n") + "\n", "console block at line \(block.line)")
                ran += 1
            default:
                break
            }
        }
        #expect(ran >= 12)
    }

    /// docs/REPL.md: each `repl` block is a session — its `$ factoryhost …`
    /// line runs from the repository root, the lines after `> ` and `>> `
    /// are typed, and the rest is what the session prints (standard output
    /// and error together).
    @Test func everyREPLTranscriptRunsAsShown() throws {
        let page = CommandRunner.packageRoot.appendingPathComponent("docs/REPL.md")
        var ran = 0
        for block in try Self.blocks(of: page) where block.language == "repl" {
            var lines = block.text.components(separatedBy: "\n")
            let command = lines.removeFirst()
            #expect(command.hasPrefix("$ factoryhost "), "repl block at line \(block.line)")
            var input: [String] = []
            var expected: [String] = []
            for line in lines {
                if line.hasPrefix(">> ") { input.append(String(line.dropFirst(3))) }
                else if line.hasPrefix("> ") { input.append(String(line.dropFirst(2))) }
                else { expected.append(line) }
            }
            let arguments = command.dropFirst("$ ".count)
            let result = try CommandRunner.run("/bin/sh", ["-c", "exec \"$0\" " + arguments.dropFirst("factoryhost ".count) + " 2>&1",
                                                          CommandRunner.factoryhost],
                                               in: CommandRunner.packageRoot, input: input.joined(separator: "\n") + "\n")
            #expect(result.status == 0, "repl block at line \(block.line): \(result)")
            #expect(result.stdout == expected.joined(separator: "\n") + "\n", "repl block at line \(block.line): \(result)")
            ran += 1
        }
        #expect(ran >= 1)
    }

    /// docs/YourOwnApp.md shows the files of Examples/shop, which CI builds,
    /// runs and tests (Scripts/test.sh): each block starting `file: PATH`
    /// (`// file:` or `-- file:`) is that file of the package, word for word (#36).
    @Test func theOwnAppGuideShowsTheExamplePackagesFilesAsTheyAre() throws {
        let page = CommandRunner.packageRoot.appendingPathComponent("docs/YourOwnApp.md")
        let package = CommandRunner.packageRoot.appendingPathComponent("Examples/shop")
        var compared = 0
        for block in try Self.blocks(of: page) {
            var lines = block.text.components(separatedBy: "\n")
            guard let first = lines.first, let range = first.range(of: "file: "),
                  first.hasPrefix("// file: ") || first.hasPrefix("-- file: ") else { continue }
            let path = String(first[range.upperBound...])
            lines.removeFirst()
            let file = try String(contentsOf: package.appendingPathComponent(path), encoding: .utf8)
            #expect(lines.joined(separator: "\n") + "\n" == file, "docs/YourOwnApp.md:\(block.line): \(path) differs from Examples/shop/\(path)")
            compared += 1
        }
        #expect(compared >= 10, "the guide shows the package's files")
    }
}
