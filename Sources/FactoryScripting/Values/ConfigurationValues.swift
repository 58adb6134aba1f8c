import FactoryRegistry
import FactoryhostSupport
import LuaBridge

/// The configuration values of a host: declared by scripts (`value
/// "baseURL" { type = "string", default = "…" }`), given by values files,
/// environment variables and the command line — later sources winning —
/// and injected into factories that name them in `deps` (`url = value
/// "baseURL"`). Each source's text is converted to the declared type, and
/// every problem says which source gave what.
///
/// ```swift
/// try host.values.set("baseURL", to: "https://staging.example")      // as --set baseURL=…
/// try host.values.addFile("staging.lua")                              // as --values staging.lua
/// ```
public final class ConfigurationValues {
    /// The types a value may have.
    public enum Kind: String, CaseIterable, Sendable {
        /// Text.
        case string
        /// A whole number (`42`, not `42.0`).
        case integer
        /// Any number.
        case number
        /// `true` or `false`.
        case boolean
    }

    /// A value as a script declared it.
    struct Declaration: Equatable {
        var name: String
        var kind: Kind
        var defaultValue: Given?
        /// The environment variable that gives it, if any (`env = "BASE_URL"`).
        var environment: String?
        var origin: Origin

        func sameDeclaration(as other: Declaration) -> Bool {
            guard name == other.name, kind == other.kind, environment == other.environment else { return false }
            switch (defaultValue?.value, other.defaultValue?.value) {
            case (nil, nil): return true
            case (.integer(let a)?, .number(let b)?), (.number(let b)?, .integer(let a)?): return Double(a) == b   // 3 and 3.0
            case (let a?, let b?): return a == b
            default: return false
            }
        }
    }

    /// A value a source gave, and which source (for messages).
    struct Given: Equatable {
        enum Value: Equatable { case text(String), integer(Int), number(Double), boolean(Bool) }
        var value: Value
        var source: String
    }

    private(set) var declarations: [String: Declaration] = [:]
    /// From scripts (`values { baseURL = … }`): over the defaults, under every outside source.
    private var fromScripts: [String: Given] = [:]
    /// From values files, in the order they were added (later wins).
    private var fromFiles: [String: Given] = [:]
    /// From the command line (`--set`), winning over everything.
    private var fromCommandLine: [String: Given] = [:]
    /// Whether environment variables may give values (not in a sandbox
    /// that was not granted the environment).
    public var readsEnvironment = true

    /// Values with nothing declared or given yet (a host makes its own;
    /// `factoryhost test` makes one to read its values files once, up front).
    public init() {}

    // MARK: Sources

    /// `--set name=value`: the value as text, converted to the declared type when used.
    ///
    /// - Throws: a `LuaError` (`.typeMismatch`) for a name that is not a valid value name.
    public func set(_ name: String, to text: String) throws {
        try Self.checkName(name, what: "--set")
        fromCommandLine[name] = Given(value: .text(text), source: "--set \(name)")
    }

    /// `--set name=value` as one word.
    ///
    /// - Throws: a `LuaError` (`.typeMismatch`) for a word without `=` or with a bad name.
    public func set(assignment: String) throws {
        guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
            throw LuaError(.typeMismatch, "--set takes name=value (got '\(assignment)')")
        }
        try set(String(assignment[..<equals]), to: String(assignment[assignment.index(after: equals)...]))
    }

    /// `values { name = value, … }` in a script at `origin`: values it
    /// works out as it runs (a scratch file, a server's port), which files,
    /// the environment and `--set` still override.
    func setFromScript(_ table: LuaTable, origin: Origin) throws {
        let place = origin.line > 0 ? " at \(origin)" : ""
        try read(table, source: "the script\(place)", what: "values\(origin.line > 0 ? " (\(origin))" : "")") { fromScripts[$0] = $1 }
    }

    /// What scripts declared and gave, to go back to (the test runner: a
    /// test's values and declarations are its own).
    var scriptState: (declarations: [String: Declaration], given: [String: Given]) {
        get { (declarations, fromScripts) }
        set { (declarations, fromScripts) = newValue }
    }

    /// Reads a table of names to values.
    private func read(_ table: LuaTable, source: String, what: String, _ store: (String, Given) -> Void) throws {
        for (key, value) in try table.pairs() {
            guard case .string(let name) = key else {
                throw LuaError(.typeMismatch, "\(what): a name must be a string (got \(key.typeName))")
            }
            let given: Given.Value
            switch value {
            case .string(let text): given = .text(text.description)
            case .integer(let number): given = .integer(number)
            case .number(let number): given = .number(number)
            case .boolean(let flag): given = .boolean(flag)
            default:
                throw LuaError(.typeMismatch, "\(what): '\(name)' is a \(value.typeName); a value is a string, number or boolean")
            }
            try Self.checkName(name.description, what: what)
            store(name.description, Given(value: given, source: source))
        }
    }

    /// A values file: Lua that returns a table of names to values
    /// (`return { baseURL = "https://…", retries = 5 }`), run with no
    /// library and a time limit, in a state of its own.
    ///
    /// `timeLimit`: how long its Lua may run (2 s unless a command's own limit is shorter).
    ///
    /// - Throws: a `LuaError` naming the file: it cannot be read or compiled, it raised an error or ran out of time, or it did not return a table of valid names and values.
    public func addFile(_ path: String, timeLimit: Duration = .seconds(2)) throws {
        // A FIFO nobody writes would block before any limit runs (the REPL has no
        // whole-command deadline), and a device may never end: values come from a file.
        if let kind = Directory.specialKind(path) {
            throw LuaError(.file, "values file \(path): not a regular file (\(kind)): give a file, or the values with --set")
        }
        let lua = try LuaState(libraries: .sandboxed)
        lua.timeLimit = timeLimit
        // Stuck where no hook reaches (a long C builtin): the process ends a second past the limit.
        lua.hardStop = .exitProcess(grace: .seconds(1), prefix: "\(ProgramName.current): values file \(path): ")
        lua.memoryLimit = 64 << 20
        let chunk: LuaFunction
        do {
            chunk = try lua.loadFile(path, mode: "t")
        } catch let error as LuaError {
            throw LuaError(.file, "values file \(path): \(error.message)")
        }
        let results: [LuaValue]
        do {
            results = try chunk.call()
        } catch let error as LuaError {
            throw LuaError(error.kind, "values file \(path): \(error.message)")
        }
        guard case .table(let table)? = results.first else {
            throw LuaError(.typeMismatch, "values file \(path) must return a table of names to values, as return { baseURL = \"…\" }")
        }
        try read(table, source: "values file \(path)", what: "values file \(path)") { fromFiles[$0] = $1 }
    }

    // MARK: Declaring

    func declare(_ declaration: Declaration) throws {
        if let existing = declarations[declaration.name] {
            guard existing.sameDeclaration(as: declaration) else {
                throw LuaError(.typeMismatch, "declared twice, differently: "
                               + "\(Self.describe(existing)) at \(existing.origin), and \(Self.describe(declaration)) here")
            }
            return
        }
        if let defaultValue = declaration.defaultValue {
            do {
                _ = try convert(defaultValue, to: declaration.kind, name: declaration.name)
            } catch {
                throw LuaError(.typeMismatch, "the default \(defaultValue.value.shown) is not a\(declaration.kind == .integer ? "n" : "") \(declaration.kind.rawValue)")
            }
        }
        declarations[declaration.name] = declaration
    }

    private static func describe(_ declaration: Declaration) -> String {
        var text = declaration.kind.rawValue
        if let given = declaration.defaultValue { text += ", default \(given.value.shown)" }
        if let environment = declaration.environment { text += ", env \(environment)" }
        return text
    }

    static func checkName(_ name: String, what: String) throws {
        // Words of letters, digits and _ (not starting with a digit), joined by single dots.
        let words = name.split(separator: ".", omittingEmptySubsequences: false)
        guard name.utf8.count <= 200, words.allSatisfy({ word in
            guard let first = word.utf8.first, !(48...57).contains(first) else { return false }
            return word.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 65 && $0 <= 90) || ($0 >= 48 && $0 <= 57) || $0 == 95 }
        }) else {
            let shown = shownName(name)
            throw LuaError(.typeMismatch, "\(what): '\(shown)' is no value name (words of letters, digits and _, "
                           + "not starting with a digit, joined by dots; at most 200 bytes)")
        }
    }

    // MARK: Reading

    /// The value `name` has now, as Lua sees it: the command line's, else the
    /// environment's, else the last values file's, else a script's, else the default.
    func value(_ name: String) throws -> LuaValue {
        guard let declaration = declarations[name] else {
            throw LuaError(.typeMismatch, "no value '\(name)' is declared" + NameSuggestion.didYouMean(name, among: declarations.keys))
        }
        guard let given = try given(for: declaration) else {
            throw LuaError(.typeMismatch, "value '\(name)' is not set: give it with --set \(name)=…, "
                           + "in a values file (--values)\(declaration.environment.map { ", with $\($0)" } ?? ""), or a default")
        }
        return try convert(given, to: declaration.kind, name: name)
    }

    private func given(for declaration: Declaration) throws -> Given? {
        if let given = fromCommandLine[declaration.name] { return given }
        if readsEnvironment, let variable = declaration.environment, let text = getenv(variable) {
            // Bytes that are not UTF-8 are refused, shown as they are (repaired, a value of other bytes was used).
            guard let value = String(validatingCString: text) else {
                let bytes = UnsafeRawBufferPointer(start: text, count: strlen(text))
                throw LuaError(.typeMismatch, "value '\(declaration.name)' from $\(variable): '\(TextEscaping.shownBytes(bytes.prefix(200)))' is not UTF-8 text")
            }
            return Given(value: .text(value), source: "$\(variable)")
        }
        return fromFiles[declaration.name] ?? fromScripts[declaration.name] ?? declaration.defaultValue
    }

    private func convert(_ given: Given, to kind: Kind, name: String) throws -> LuaValue {
        func wrong() -> LuaError {
            LuaError(.typeMismatch, "value '\(name)' from \(MessageText.oneLine(given.source)): \(given.value.shown) is not a\(kind == .integer ? "n" : "") \(kind.rawValue)")
        }
        switch (kind, given.value) {
        case (.string, .text(let text)): return LuaValue(text)
        case (.integer, .integer(let number)): return .integer(number)
        case (.integer, .number(let number)):                 // 5.0 is 5, as Lua's math.tointeger says
            guard number.isFinite, number == number.rounded(), let exact = Int(exactly: number) else { throw wrong() }
            return .integer(exact)
        case (.integer, .text(let text)):
            let trimmed = text.trimmingCharacters(in: " ")
            let hex = trimmed.lowercased().hasPrefix("0x") ? Int(trimmed.dropFirst(2), radix: 16)
                : trimmed.lowercased().hasPrefix("-0x") ? Int(trimmed.dropFirst(3), radix: 16).map { -$0 } : nil
            guard let number = hex ?? Int(trimmed) else { throw wrong() }
            return .integer(number)
        case (.number, .number(let number)) where number.isFinite: return .number(number)
        case (.number, .integer(let number)): return .number(Double(number))
        case (.number, .text(let text)):
            guard let number = Double(text.trimmingCharacters(in: " ")), number.isFinite else { throw wrong() }
            return .number(number)
        case (.boolean, .boolean(let flag)): return .boolean(flag)
        case (.boolean, .text(let text)):
            switch text.trimmingCharacters(in: " ").lowercased() {
            case "true", "yes", "1": return .boolean(true)
            case "false", "no", "0": return .boolean(false)
            default: throw wrong()
            }
        default: throw wrong()
        }
    }

    // MARK: Checking

    /// What is wrong with the values `uses` name (each with the
    /// registration that uses it), and with names a source gave that no
    /// script declared.
    func problems(uses: [(name: String, user: String, origin: Origin)]) -> [RegistryError] {
        var problems: [RegistryError] = []
        for use in uses {
            do {
                _ = try value(use.name)
            } catch let error as LuaError {
                var problem = RegistryError(.missingRegistration, error.message,
                                            details: ["used by \(use.user) (\(use.origin))"], origin: use.origin)
                problem.missingKey = use.name          // check points at the line naming it (value "curency")
                problems.append(problem)
            } catch {}
        }
        let given = fromCommandLine.values.map(\.source) + fromFiles.values.map(\.source) + fromScripts.values.map(\.source)
        for (name, source) in zip(Array(fromCommandLine.keys) + Array(fromFiles.keys) + Array(fromScripts.keys), given)
            .sorted(by: { $0.0 < $1.0 })
            where declarations[name] == nil {
            problems.append(RegistryError(.missingRegistration, "\(source) gives '\(name)', which no script declares"
                                          + NameSuggestion.didYouMean(name, among: declarations.keys)))
        }
        return problems
    }
}

extension ConfigurationValues.Given.Value {
    /// As messages show it: text quoted, numbers and booleans as Lua writes them.
    var shown: String {
        switch self {
        // (Only its start is looked at: counting a 10 MB value's characters took seconds.)
        case .text(let text): return "\"" + MessageText.oneLine(text.prefix(61).count > 60 ? String(text.prefix(57)) + "..." : text) + "\""
        case .integer(let number): return String(number)
        case .number(let number): return String(number)
        case .boolean(let flag): return String(flag)
        }
    }
}

extension String {
    /// Without `byte` (an ASCII character) at either end — by bytes: by
    /// characters, a 10 MB value given for a number took 8 s to refuse.
    fileprivate func trimmingCharacters(in set: Character) -> String {
        guard let byte = set.asciiValue, let first = utf8.firstIndex(where: { $0 != byte }),
              let last = utf8.lastIndex(where: { $0 != byte }) else { return set.asciiValue == nil ? self : "" }
        return String(self[first...last])
    }
}
