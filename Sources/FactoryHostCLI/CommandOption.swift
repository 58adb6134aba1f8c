import FactoryScripting

/// One option of a script command — its name, whether it takes a value,
/// whether it may be given more than once — and what it does to the
/// command's settings.
///
/// Each script command is read two ways: by the argument parser, and for
/// start-up time without it (``PlainCommandLine``). Both apply every option
/// through the command's table (``RunOption``, ``CheckOption``,
/// ``GraphOption``, ``TestOption``), so that the two readings cannot come to
/// mean different things; the tests run every option through both and fail
/// for an option the parser knows that the table does not.
///
/// ```swift
/// var settings = CheckSettings(script: "app.lua")
/// _ = CheckOption.config.apply("app-tests", to: &settings)     // true
/// _ = CheckOption.format.apply("yaml", to: &settings)          // false: the parser says why
/// ```
protocol CommandOption: RawRepresentable, CaseIterable, Sendable where RawValue == String {
    /// What the option changes.
    associatedtype Settings
    /// Whether it takes a value (`--timeout 2s`); else it is a flag (`--list`).
    var takesValue: Bool { get }
    /// Whether it may be given more than once (`--plugin-path a --plugin-path b`).
    var repeats: Bool { get }
    /// Other names the option goes by (`-j` for `--jobs`).
    static var otherNames: [String: Self] { get }
    /// Applies the option — with `value`, or "" for a flag — to `settings`.
    /// False when the value is not valid: the plain reading then leaves the
    /// command line to the argument parser, which says why.
    func apply(_ value: String, to settings: inout Settings) -> Bool
}

extension CommandOption {
    var takesValue: Bool { true }
    static var otherNames: [String: Self] { [:] }

    /// The option `name` names, by its own name or another.
    static func named(_ name: String) -> Self? { Self(rawValue: name) ?? otherNames[name] }

    /// Applies what the argument parser read, option by option and in the
    /// table's order, as the plain reading applies each word. The parser's
    /// `validate()` has refused every value that cannot apply.
    static func apply(_ given: [(Self, [String])], to settings: inout Settings) {
        for (option, values) in given {
            for value in values { _ = option.apply(value, to: &settings) }
        }
    }
}

/// The settings of a command that loads plugins and configuration values
/// (every script command: `run`, `repl`, `check`, `graph`, `test`).
protocol ScriptInputSettings {
    /// `--plugin-path`, in order.
    var pluginPaths: [String] { get set }
    /// `--values`, in order.
    var valueFiles: [String] { get set }
    /// `--set`, in order.
    var valueAssignments: [String] { get set }
}

/// The options every script command shares, applied one way everywhere.
enum ScriptInputOption: String, CaseIterable, Sendable {
    case pluginPath = "--plugin-path"
    case set = "--set"
    case values = "--values"

    /// Applies the option's `value` to `settings`; false for `--set` without `name=value`.
    func apply<Settings: ScriptInputSettings>(_ value: String, to settings: inout Settings) -> Bool {
        switch self {
        case .pluginPath: settings.pluginPaths.append(value)
        case .values: settings.valueFiles.append(value)
        case .set:
            guard HostSetup.isAssignment(value) else { return false }
            settings.valueAssignments.append(value)
        }
        return true
    }
}

/// The settings of a command that declares a script's configurations
/// without building anything (`check`, `graph`).
protocol DeclarationCommandSettings: ScriptInputSettings {
    /// The script, `-` for standard input.
    var script: String { get set }
    /// The script's own words (`arg[1…]`).
    var arguments: [String] { get set }
    /// `--config`.
    var configuration: String? { get set }
    /// `--timeout`: the whole command's.
    var timeLimit: Duration { get set }
}

/// The options `check` and `graph` share beyond ``ScriptInputOption``.
enum DeclarationOption: String, CaseIterable, Sendable {
    case config = "--config"
    case timeout = "--timeout"

    /// Applies the option's `value` to `settings`; false for a duration that is none.
    func apply<Settings: DeclarationCommandSettings>(_ value: String, to settings: inout Settings) -> Bool {
        switch self {
        case .config: settings.configuration = value
        case .timeout:
            guard let duration = Limits.duration(value) else { return false }
            settings.timeLimit = duration
        }
        return true
    }
}

extension CommandOption where Settings: DeclarationCommandSettings {
    /// Applies an option `check` and `graph` share, if `self` is one.
    func applyShared(_ value: String, to settings: inout Settings) -> Bool? {
        if let shared = ScriptInputOption(rawValue: rawValue) { return shared.apply(value, to: &settings) }
        return DeclarationOption(rawValue: rawValue)?.apply(value, to: &settings)
    }

    /// `argv` read without the argument parser if it is `command` in a
    /// plain form (see ``PlainCommandLine/readScriptCommand(_:command:into:with:)``),
    /// from `defaults`; nil for anything else.
    static func plainSettings(_ argv: [String], command: String, defaults: Settings) -> Settings? {
        var settings = defaults
        guard let (script, arguments) = PlainCommandLine.readScriptCommand(argv, command: command, into: &settings, with: Self.self)
        else { return nil }
        settings.script = script
        settings.arguments = arguments
        return settings
    }
}
