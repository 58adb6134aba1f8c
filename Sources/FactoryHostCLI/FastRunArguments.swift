import FactoryScripting
import FactoryhostSupport
import LuaBridge
import LuaInterpreter

/// The plain forms of `factoryhost run`: known options (with valid values)
/// and `-e`/`-l` before the script, then the script and its arguments.
/// With no script, `-e`/`-l` alone (``RunSettings/hasScript`` is false). Anything else returns nil, and the argument parser handles (and reports)
/// it. (The parser's time grows with the square of the words it reads:
/// `run -e x app.lua` with 20,000 arguments for the script took 9.5 s.)
enum FastRunArguments {
    static func parse(_ argv: [String]) -> RunSettings? {
        guard argv.count >= 3, argv[1] == "run" else { return nil }
        var settings = RunSettings(runner: ScriptRunner(commandLine: argv, scriptIndex: 0))
        var i = 2
        var sawAllow = false
        var statements: Set<Int> = []                 // -e statements: bytes, as lua5.4 passes them
        while i < argv.count {
            let word = argv[i]
            guard word.hasPrefix("-"), word != "-" else { break }          // the script
            // -e STAT, -l MOD (or -eSTAT, -lMOD), as lua5.4 reads them: run in order, before the script.
            if word.hasPrefix("-e") || word.hasPrefix("-l") {
                if word.hasPrefix("-e") { statements.insert(word.count == 2 ? i + 1 : i) }
                if word.count == 2 {
                    // (A value that looks like an option: the parser says what it makes of it.)
                    guard i + 1 < argv.count, !argv[i + 1].hasPrefix("-") else { return nil }
                    i += 1
                }
                i += 1
                continue
            }
            let (name, inline) = PlainCommandLine.split(word)
            // --help, --, -i, an unknown option: the parser's job.
            guard let option = RunOption(rawValue: name) else { return nil }
            if option.takesValue {
                guard let value = PlainCommandLine.optionValue(argv, at: &i, inline: inline),
                      option.apply(value, to: &settings) else { return nil }
            } else {
                guard inline == nil, option.apply("", to: &settings) else { return nil }
            }
            sawAllow = sawAllow || option == .allow
            i += 1
        }
        if sawAllow && settings.runner.libraries != .sandboxed { return nil }  // the parser says why
        settings.runner.scriptIndex = i
        settings.runner.commandLineBytes = RawArguments.bytes(for: argv)
        if settings.runner.commandLineBytes != nil {
            RawArguments.refuseWordsThatAreNotText(argv, passing: { $0 >= i || statements.contains($0) },
                                                   program: ProgramName.current, command: "run")
        }
        settings.runner.preludes = ReplCommand.preludes(Array(argv[..<i]))
        // No script: `-e`/`-l` alone run (see RunSettings.hasScript); nothing at all, the parser reports it.
        guard i < argv.count || !settings.runner.preludes.isEmpty else { return nil }
        return settings
    }
}
