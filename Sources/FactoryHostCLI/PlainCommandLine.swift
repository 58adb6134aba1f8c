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
struct PlainCommandLine {
    /// Each option's values, in order (`--plugin-path` may repeat).
    var values: [String: [String]] = [:]
    var script: String
    var arguments: [String]

    /// Reads `argv` (with the program name at 0) if it is `command` in a
    /// plain form. `options` are the long options that take a value;
    /// `repeatable` ones may be given more than once.
    static func parse(_ argv: [String], command: String, options: Set<String>,
                      repeatable: Set<String> = []) -> PlainCommandLine? {
        guard argv.count >= 3, argv[1] == command else { return nil }
        var values: [String: [String]] = [:]
        var i = 2
        while i < argv.count {
            let word = argv[i]
            guard word.hasPrefix("-"), word != "-" else { break }             // the script
            let (name, inline) = split(word)
            guard let value = optionValue(argv, at: &i, inline: inline) else { return nil }
            guard options.contains(name), values[name] == nil || repeatable.contains(name) else { return nil }
            values[name, default: []].append(value)
            i += 1
        }
        guard i < argv.count else { return nil }                               // no script
        let arguments = Array(argv[(i + 1)...])
        guard !arguments.contains(where: { $0.hasPrefix("-") }) else { return nil }
        return PlainCommandLine(values: values, script: argv[i], arguments: arguments)
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

    /// The single value of `option`, if given.
    func value(_ option: String) -> String? { values[option]?.last }

    /// The value of `option` as `read` makes it, `fallback` if the option
    /// is not given; nil if `read` cannot make it (the parser reports that).
    func value<T>(_ option: String, default fallback: T, _ read: (String) -> T?) -> T? {
        guard let word = value(option) else { return fallback }
        return read(word)
    }
}
