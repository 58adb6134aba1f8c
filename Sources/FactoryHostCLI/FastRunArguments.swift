import FactoryScripting
import FactoryhostSupport
import LuaBridge
import LuaInterpreter

/// The plain forms of `factoryhost run`: known options (with valid values)
/// before the script, then the script and its arguments. Anything else
/// returns nil, and the argument parser handles (and reports) it.
enum FastRunArguments {
    static func parse(_ argv: [String]) -> RunSettings? {
        guard argv.count >= 3, argv[1] == "run" else { return nil }
        var settings = RunSettings(runner: ScriptRunner(commandLine: argv, scriptIndex: 0))
        var i = 2
        var sawAllow = false
        while i < argv.count {
            let word = argv[i]
            guard word.hasPrefix("-"), word != "-" else { break }          // the script
            let (name, inline) = PlainCommandLine.split(word)
            // --help, --, -i, -e, -l, an unknown option: the parser's job.
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
        guard i < argv.count else { return nil }                           // no script: the parser reports it
        if sawAllow && settings.runner.libraries != .sandboxed { return nil }  // the parser says why
        settings.runner.scriptIndex = i
        return settings
    }
}
