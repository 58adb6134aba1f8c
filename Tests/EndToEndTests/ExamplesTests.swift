import Foundation
import Testing

/// Every article example runs with `factoryhost run` and its specs pass
/// under `factoryhost test` — as a newcomer runs them, from the repository root.
@Suite("The article examples")
struct ExamplesTests {
    static let examples = ["assisted-factories", "builders", "koober", "movie-loaders", "persistence"]

    /// Each prints exactly what its expected output says (a temporary
    /// file's name, which changes at every run, is the one thing replaced).
    @Test(arguments: examples)
    func mainPrintsExactlyItsExpectedOutput(_ name: String) throws {
        let result = try CommandRunner.factoryhost(["run", "Examples/\(name)/main.lua"], in: CommandRunner.packageRoot)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "")
        let expected = try String(contentsOf: CommandRunner.fixtures.appendingPathComponent("example-output/\(name).txt"), encoding: .utf8)
        let printed = result.stdout.replacingOccurrences(of: #"/tmp/lua_[A-Za-z0-9]+"#, with: "<temporary file>", options: .regularExpression)
        #expect(printed == expected)
    }

    @Test(arguments: examples)
    func configurationsCheckClean(_ name: String) throws {
        let result = try CommandRunner.factoryhost(["check", "Examples/\(name)/main.lua"], in: CommandRunner.packageRoot)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("ok: "))
    }

    @Test func specsPassUnderTheRunner() throws {
        let result = try CommandRunner.factoryhost(["test", "--reporter", "tap", "Examples"], in: CommandRunner.packageRoot)
        #expect(result.status == 0, "\(result)")
        #expect(!result.stdout.contains("not ok"))
        let files = Set(result.stdout.split(separator: "\n").filter { $0.hasPrefix("# Examples/") })
        #expect(files.count == Self.examples.count)
        #expect(result.stdout.hasSuffix(" passed, 0 failed\n"))
    }

    @Test func movieLoadersPrintWhatTheArticleShows() throws {
        let result = try CommandRunner.factoryhost(["run", "Examples/movie-loaders/main.lua"], in: CommandRunner.packageRoot)
        #expect(result.stdout == """
            one loader per screen:\ttrue\ttrue
            Alien (1979)\t| fetches:\t1
            Alien (1979)\t| fetches:\t0\t(from the shared cache)
            Brazil (1985)\t|\tBrazil (1985)\t| same state object:\tfalse
            pending on details:\t1\tpending
            after details closed:\tcancelled\t/movies/3: the request was cancelled
            home is unaffected:\tBrazil (1985)
            the factory is passed on:\ttrue\t| each screen its own loader:\ttrue
            Alien (1979)\t|\tAlien (1979)\t| fetches:\t0\t0\t(the cache is shared, the loaders are not)

            """)
    }
}
