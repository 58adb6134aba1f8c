import ExamplePlugins
import Foundation
import FactoryScripting
import Testing

/// The README's script-side example (its section *Scripts declare
/// configurations*): its Lua block, run by its Swift lines.
@Suite("README: the script side")
struct ReadmeScriptTests {
    @Test func theReadmeScriptRunsFromSwiftAsShown() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let section = try #require(text.components(separatedBy: "## Scripts declare configurations").dropFirst().first)
        let lua = try #require(section.components(separatedBy: "```lua\n").dropFirst().first?.components(separatedBy: "```").first)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fh-readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("app.lua").path
        try Data(lua.utf8).write(to: URL(fileURLWithPath: path))

        // As in the README (with the script's path).
        let host = try FactoryHost(plugins: [NetworkingPlugin(), SessionPlugin()])
        try host.run(file: path)
        let loader = try host.container("app-tests").resolve(MovieLoader.self)

        #expect(loader.session.baseURL == "fixture://")
        #expect(try loader.load(3) == "movie 3 from fixture://")
    }
}
