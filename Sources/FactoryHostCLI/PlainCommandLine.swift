/// The plain forms of a script command, read without the argument parser:
/// `factoryhost <command> [--option value | --option=value]... script [word...]`.
///
/// Setting the argument parser up costs about as much start-up time as the
/// whole Swift runtime (it reflects over every command's properties), and
/// `run`, `check` and `graph` must start within 3× of lua5.4. Anything not
/// plain — an unknown or repeated option, `--help`, a missing value, a value
/// that looks like an option, a word after the script that starts with `-`
/// (the parser would read it as an option) — gives nil, and the argument
/// parser handles (and reports) the command line as usual. Only forms both
/// read the same way are taken here; the end-to-end tests compare the two.
enum PlainCommandLine {
    /// Reads the options of `argv` from `start` (after the program and the
    /// command) through `Option`'s table into `settings`, and returns the
    /// index of the first word that is no option (the script, the paths):
    /// nil for anything not plain — an unknown option, a single one given
    /// twice, a flag given a value, `-j=2`, a missing value or one the
    /// table refuses.
    static func readOptions<Option: CommandOption>(_ argv: [String], from start: Int = 2, into settings: inout Option.Settings,
                                                   with _: Option.Type) -> Int? {
        var seen = Set<String>()
        var i = start
        while i < argv.count {
            let word = argv[i]
            guard word.hasPrefix("-"), word != "-" else { break }             // the script, the paths
            let (name, inline) = split(word)
            guard let option = Option.named(name), option.repeats || seen.insert(option.rawValue).inserted else { return nil }
            if option.takesValue {
                // (A short name takes its value as the next word only: the parser reads `-j=2` as "=2".)
                guard name.hasPrefix("--") || inline == nil,
                      let value = optionValue(argv, at: &i, inline: inline), option.apply(value, to: &settings) else { return nil }
            } else {
                guard inline == nil, option.apply("", to: &settings) else { return nil }
            }
            i += 1
        }
        return i
    }

    /// Reads `argv` (with the program name at 0) if it is `command` in a
    /// plain form — options, then a script and its arguments (none of which
    /// starts with `-`: the parser would read it as an option) — applying
    /// each option through `Option`'s table into `settings`.
    static func readScriptCommand<Option: CommandOption>(_ argv: [String], command: String, into settings: inout Option.Settings,
                                                         with table: Option.Type) -> (script: String, arguments: [String])? {
        guard argv.count >= 3, argv[1] == command,
              let i = readOptions(argv, into: &settings, with: table), i < argv.count else { return nil }   // (no script)
        let arguments = Array(argv[(i + 1)...])
        guard !arguments.contains(where: { $0.hasPrefix("-") }) else { return nil }
        return (argv[i], arguments)
    }

    /// `--name=value` as its name and inline value; `--name` as its name alone.
    static func split(_ word: String) -> (name: String, inline: String?) {
        guard let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }

    /// The value of the option at `argv[i]` (`inline`: what followed its
    /// `=`), moving `i` past a value given as the next word. Nil where the
    /// parser would read it otherwise: an empty `--opt=` (the parser takes
    /// the next word) or a next word that looks like an option (the parser
    /// reports a missing value — taking `--config --sandbox` as a
    /// configuration named "--sandbox" would drop the sandbox).
    static func optionValue(_ argv: [String], at i: inout Int, inline: String?) -> String? {
        if let inline { return inline.isEmpty ? nil : inline }
        guard i + 1 < argv.count, !argv[i + 1].hasPrefix("-") else { return nil }
        i += 1
        return argv[i]
    }
}
