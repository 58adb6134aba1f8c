import ExamplePlugins
import FactoryRegistry
import FactoryScripting
import Foundation
import LuaBridge
import Testing

/// The DocC article "Embedding factoryhost in an App": each of its Swift
/// snippets is below as written (the test reads the article and finds each
/// snippet's lines here, in order), so a snippet that stops compiling — or
/// one missing a `try` — fails the build or this test (#36).
@Suite("The embedding article's snippets compile and run")
struct EmbeddingArticleTests {
    static let article = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/FactoryScripting/FactoryScripting.docc/EmbeddingFactoryhost.md")

    /// A project as the article assumes it: Config/app.lua requires Config/app_config.lua, beside it.
    static func makeProject() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("fh-embed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Config"), withIntermediateDirectories: true)
        try Data("require \"app_config\"\n".utf8).write(to: root.appendingPathComponent("Config/app.lua"))
        try Data("""
            local net = require "factoryhost.networking"
            scope "session"
            configuration "app" {
              register "Cache" { scope = "singleton", make = function() return net.Cache.new() end },
              register "HTTPSession" { scope = "singleton", make = function() return net.HTTPSession.new { baseURL = "fixture://" } end },
              register "MovieLoader" { deps = { cache = "Cache", session = "HTTPSession" },
                make = function(d) return net.MovieLoader.new(d.cache, d.session) end },
            }
            """.utf8).write(to: root.appendingPathComponent("Config/app_config.lua"))
        return root
    }

    @Test func everySnippetIsHereAsWritten() throws {
        let text = try String(contentsOf: Self.article, encoding: .utf8)
        let snippets = text.components(separatedBy: "```swift\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
        #expect(snippets.count >= 4, "the article's snippets")
        let here = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        for snippet in snippets {
            var rest = here[...]
            for line in snippet.split(separator: "\n") where !line.hasPrefix("import ") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard let found = rest.range(of: trimmed) else {
                    Issue.record("not compiled here as written: \(trimmed)")
                    break
                }
                rest = rest[found.upperBound...]
            }
        }
    }

    /// The article's snippets as written (compiled; run below with the project's absolute paths:
    /// changing the working directory would race the tests running beside this one).
    static func articleSnippets(plugins: [any FactoryPlugin]) throws {
        // Make a host and run a script.
        let host = try FactoryHost(plugins: [NetworkingPlugin(), PersistencePlugin()])
        try host.run(file: "Config/app.lua")

        // Check before you build.
        let problems = try host.check("app")
        for problem in problems { print(problem) }   // each names its origin: app.lua:14

        // Resolve from Swift.
        let container = try host.container("app")
        let loader = try container.resolve(MovieLoader.self)
        let session = try container.openScope("session")
        defer { try? session.close() }               // the session's instances are released here
        _ = loader

        // Untrusted scripts.
        do {
            let host = try FactoryHost(plugins: plugins, libraries: .sandboxed, granting: [.network])
            host.lua.memoryLimit = 64 << 20
            host.lua.timeLimit = .seconds(2)
        }
    }

    @Test func theSnippetsRunAsTheArticleSays() throws {
        let root = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: root) }
        // run(file:) finds the module beside the script, from any working directory.
        let host = try FactoryHost(plugins: [NetworkingPlugin(), PersistencePlugin()])
        try host.run(file: root.appendingPathComponent("Config/app.lua").path)
        let problems = try host.check("app")
        #expect(problems.isEmpty, "\(problems)")
        let container = try host.container("app")
        let loader = try container.resolve(MovieLoader.self)
        let session = try container.openScope("session")
        #expect(try loader.load(1) == "movie 1 from fixture://")
        try session.close()
        let sandboxed = try FactoryHost(plugins: [NetworkingPlugin()], libraries: .sandboxed, granting: [.network])
        sandboxed.lua.timeLimit = .seconds(1)
        #expect(throws: LuaError.self) { try sandboxed.run("while true do end", name: "spin.lua") }
    }
}
