import LuaBridge
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The entry point. `factoryhost run script.lua …` in its plain forms starts
/// the script directly: setting up the argument parser costs about as much
/// start-up time as the whole Swift runtime, and `run` must start within 4×
/// of lua5.4. Everything else — help, errors, other commands — goes through
/// the argument parser as usual.
@main
enum Main {
    static func main() {
        if let runner = FastRunArguments.parse(CommandLine.arguments) {
            exit(runner.run())
        }
        FactoryHostCommand.main()
    }
}

/// The plain forms of `factoryhost run`: known options (with valid values)
/// before the script, then the script and its arguments. Anything else
/// returns nil, and the argument parser handles (and reports) it.
enum FastRunArguments {
    static func parse(_ argv: [String]) -> ScriptRunner? {
        guard argv.count >= 3, argv[1] == "run" else { return nil }
        var runner = ScriptRunner(commandLine: argv, scriptIndex: 0)
        var i = 2
        while i < argv.count {
            let word = argv[i]
            guard word.hasPrefix("-"), word != "-" else { break }          // the script
            let (name, inline) = splitOption(word)
            switch name {
            case "--sandbox" where inline == nil:
                runner.libraries = .sandboxed
            case "--memory-limit", "--timeout":
                guard let value = inline ?? (i + 1 < argv.count ? argv[i + 1] : nil) else { return nil }
                if inline == nil { i += 1 }
                if name == "--timeout" {
                    guard let duration = Limits.duration(value) else { return nil }
                    runner.timeLimit = duration
                } else {
                    guard let bytes = Limits.bytes(value) else { return nil }
                    runner.memoryLimit = bytes
                }
            default:
                return nil                                                 // --help, --, unknown: the parser's job
            }
            i += 1
        }
        guard i < argv.count else { return nil }                           // no script: the parser reports it
        runner.scriptIndex = i
        return runner
    }

    private static func splitOption(_ word: String) -> (String, String?) {
        guard let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }
}
