import Foundation
import Testing

/// Command-line conventions (issue #17, part): `help` of a command that
/// does not exist is a usage error, and `graph` draws Mermaid too.
@Suite("Command-line conventions")
struct CommandLineConventionsTests {
    @Test func helpOfAnUnknownCommandIsAUsageError() throws {
        let result = try CommandRunner.factoryhost(["help", "nope"])
        #expect(result == ProcessResult(status: 64, stdout: "", stderr: """
            Error: no command 'nope' (commands: run, repl, check, graph, test)
              See 'factoryhost --help' for more information.

            """), "\(result)")
        let known = try CommandRunner.factoryhost(["help", "graph"])
        #expect(known.status == 0 && known.stdout.contains("Mermaid"), "\(known)")
    }

    @Test func graphDrawsMermaid() throws {
        let result = try CommandRunner.factoryhost(["graph", "--config", "app", "--root", "MovieLoader", "--format", "mermaid",
                                                    "Examples/movie-loaders/main.lua"], in: CommandRunner.packageRoot)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == """
            flowchart LR
              n0["MovieLoader<br/>screen<br/>Examples/movie-loaders/movies_configuration.lua:27"]
              n1["MovieLoaderFactory<br/>singleton<br/>Examples/movie-loaders/movies_configuration.lua:24"]
              n2["Cache<br/>singleton<br/>Examples/movie-loaders/movies_configuration.lua:21"]
              n3["HTTPSession<br/>singleton<br/>Examples/movie-loaders/movies_configuration.lua:22"]
              n0 -->|"factory"| n1
              n1 -->|"cache"| n2
              n1 -->|"session"| n3

            """, "\(result)")
    }
}
