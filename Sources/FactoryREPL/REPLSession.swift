import FactoryRegistry
import FactoryScripting
import FactoryhostSupport
import LuaBridge
import LuaInterpreter

/// One REPL session: a host that ran the session's script, the Lua half
/// (`repl.lua`: the prompt's environment; `repl_printer.lua` and
/// `repl_completion.lua`, compiled when first used),
/// and what the prompt needs between lines — the locals declared there and
/// where the objects it resolved came from.
///
/// ```swift
/// let session = try REPLSession(settings: settings)
/// session.submit(["local loader = resolve 'MovieLoader'"])   // runs, keeps `loader`
/// session.submit(["loader"])                                  // prints it, pretty
/// ```
///
/// Run one session per process, on one thread (the one that made it, which
/// owns its hosts): the Lua half's `describe` asks the session started last.
public final class REPLSession {
    /// How a session starts.
    public struct Settings {
        /// Makes a fresh host (called again by `:reload`).
        public var makeHost: () throws -> FactoryHost
        /// The script to run first (its declarations and top-level effects), if any.
        public var script: String?
        /// The script's arguments (`arg[1…]`, `...`).
        public var arguments: [String] = []
        /// The command-line words before the script (`factoryhost`, `run`,
        /// `-i`): `arg`'s negative indices, as lua5.4 sets them.
        public var precedingWords: [String] = []
        /// The configuration plain `resolve "X"` uses.
        public var configuration: String?
        /// Each evaluation's time limit.
        public var timeLimit: Duration?
        /// Code to run before the script: lua5.4's `-e STAT` and `-l MOD`, in order.
        public var preludes: [ScriptRunner.Prelude] = []

        public init(makeHost: @escaping () throws -> FactoryHost) { self.makeHost = makeHost }
    }

    /// What submitting input came to.
    public enum Submission: Equatable {
        /// Ran (its results, if any, were printed).
        case done
        /// The chunk is unfinished: read another line.
        case incomplete
        /// An error was printed.
        case failed
    }

    public let settings: Settings
    public private(set) var host: FactoryHost
    var library: LuaTable
    private var compile: LuaFunction
    private var show: LuaFunction
    /// The name a line's end calls to keep its locals (see `repl.lua`).
    private var keepName = "keep"
    /// The expression of the `:` command being run, as its bytes, when they are not UTF-8 text.
    var expressionBytes: [UInt8]?
    /// Hosts `:reload` replaced: kept (their collector stopped) until the
    /// session ends, so that their finalizers run then, not at a reload.
    private var retiredHosts: [FactoryHost] = []
    /// The container the prompt last resolved from (for `:live` and `:graph`).
    var lastContainer: WeakContainer?
    /// Where objects resolved at the prompt came from (weak).
    private var origins: [ObjectIdentifier: (object: WeakObject, registration: Registration, container: WeakContainer)] = [:]
    /// Where tables built by Lua factories came from, by number: the Lua
    /// half's weak-keyed `built` table maps each table to its number (a
    /// table's Swift wrapper is made anew each time; the table stays).
    private var tableOrigins: [Int: (registration: Registration, container: WeakContainer)] = [:]
    private var nextTableOrigin = 0
    /// Why the last `:reload` failed (nil: it did not, or none ran): `:check` says it checks the run before.
    var reloadFailure: String?
    /// Where output goes (standard output / error by default).
    let output: REPLOutput

    public init(settings: Settings, output: REPLOutput = .standard) throws {
        self.settings = settings
        self.output = output
        let (host, library) = try Self.start(settings)
        self.host = host
        self.library = library
        (compile, show) = try Self.functions(of: library)
        keepName = Self.keepName(of: library)
        observe(host)
    }

    private static func keepName(of library: LuaTable) -> String {
        if case .string(let name)? = try? library.rawGet("keep_name") { return name.description }
        return "keep"
    }

    /// The prompt (`_PROMPT`, or `_PROMPT2` for a continuation line).
    public func prompt(continuation: Bool) -> String {
        guard case .function(let prompt) = (try? library.rawGet("prompt")) ?? .nil,
              case .string(let text)? = interruptible({ try? prompt.call(.boolean(continuation)).first }) ?? nil else {
            return continuation ? ">> " : "> "
        }
        return text.description
    }

    /// Runs `body` (which calls Lua) with Ctrl-C stopping it, as for a line:
    /// the REPL's own calls into Lua (printing, the prompt, commands) may run
    /// a script's metamethods.
    func interruptible<T>(_ body: () throws -> T) rethrows -> T {
        host.lua.interruptOnControlC(true)
        defer { host.lua.interruptOnControlC(false) }
        return try body()
    }

    // MARK: Starting

    /// A host with the preludes and script run, and the Lua half loaded.
    private static func start(_ settings: Settings) throws -> (FactoryHost, LuaTable) {
        let host = try settings.makeHost()
        host.defaultConfiguration = settings.configuration
        host.configurationAdvice = ":use NAME (or start with --config NAME)"
        host.noteMisplacedOptions(in: settings.arguments, command: "repl")
        let lua = host.lua
        lua.timeLimit = settings.timeLimit
        let describe = try lua.frameFunction("describe") { [unowned host] frame in
            try frame.push(REPLSession.current?.description(of: frame.value(1), in: host) ?? .nil)
            return 1
        }
        let members = try lua.frameFunction("members") { [unowned host] frame in
            try frame.push(REPLSession.members(of: frame.value(1), in: host))
            return 1
        }
        // The pretty printer and completion, compiled when first used
        // (compiling them at start was half of the REPL's own start-up).
        let part = try lua.frameFunction("part") { frame in
            let source: [UInt8]
            switch try frame.string(1) {
            case "printer": source = PackageResources.repl_printer_lua
            case "completion": source = PackageResources.repl_completion_lua
            case let other: throw frame.argumentError(1, "no REPL part '\(other)'")
            }
            try frame.push(.function(frame.state.load(bytes: source, chunkName: "=[factoryhost repl]")))
            return 1
        }
        let chunk = try lua.load(bytes: PackageResources.repl_lua, chunkName: "=[factoryhost repl]")
        guard case .table(let library)? = try chunk.call(.function(describe), .function(members), .function(part)).first else {
            throw LuaError(.runtime, "the REPL library did not load")
        }
        lua.interruptOnControlC(true)
        defer { lua.interruptOnControlC(false) }
        for prelude in settings.preludes { try prelude.run(in: lua) }
        // The project's modules: the script's project, or the working directory's.
        if settings.script == nil || settings.script == "-" { try host.addProjectModuleDirectories(forScript: "-") }
        if let script = settings.script {
            if script != "-" { try host.addModuleDirectory(of: script) }
            let arg = try lua.newTable(arrayCapacity: settings.arguments.count, hashCapacity: settings.precedingWords.count + 1)
            for (index, word) in settings.precedingWords.enumerated() {
                try arg.rawSet(.integer(index - settings.precedingWords.count), LuaValue(word))
            }
            try arg.rawSet(.integer(0), LuaValue(script))
            for (index, word) in settings.arguments.enumerated() { try arg.rawSet(.integer(index + 1), LuaValue(word)) }
            try lua.setGlobal("arg", .table(arg))
            let main = try lua.loadFile(script == "-" ? nil : script)
            _ = try main.call(arguments: settings.arguments.map { LuaValue($0) })
            try host.finishScript()
        }
        return (host, library)
    }

    private static func functions(of library: LuaTable) throws -> (LuaFunction, LuaFunction) {
        guard case .function(let compile) = try library.rawGet("compile"),
              case .function(let show) = try library.rawGet("show") else {
            throw LuaError(.runtime, "the REPL library is incomplete")
        }
        return (compile, show)
    }

    /// Records where each object the prompt resolves came from.
    private func observe(_ host: FactoryHost) {
        host.onScriptResolve = { [weak self] registration, container, value in
            guard let self else { return }
            self.lastContainer = WeakContainer(container)
            guard let registration, Swift.type(of: value) is AnyClass else { return }
            if let table = value as? LuaTable { return self.remember(table, builtBy: registration, in: container) }
            // A Lua table implementing an interface: the prompt holds the table, Swift its adapter.
            if let implemented = value as? LuaImplemented {
                return self.remember(implemented.implementation.table, builtBy: registration, in: container)
            }
            let object = value as AnyObject
            if self.origins.count > 4096 { self.origins = self.origins.filter { $0.value.object.object != nil } }
            self.origins[ObjectIdentifier(object)] = (WeakObject(object), registration, WeakContainer(container))
        }
        REPLSession.current = self
    }

    /// The session whose host is running now (the Lua half's `describe` asks it).
    /// nonisolated(unsafe): set by observe() and read by the `describe` Lua function, both on the thread that runs
    /// the REPL (its hosts' owner); one REPL session runs per process (see the type's doc).
    nonisolated(unsafe) static weak var current: REPLSession?

    /// Starts over: a fresh host runs the script again; the prompt's locals
    /// and history stay with the new session (locals are dropped: they may
    /// hold objects of the old host). Returns what changed.
    public func reload() throws -> RegistrationChanges {
        let before = try Self.registrationSummary(host, library: library)
        let configuration = host.defaultConfiguration
        let (newHost, newLibrary) = try Self.start(settings)
        try newHost.installPendingPlugins()         // what `:use` and the summary read include the plugins'
        let old = host
        host = newHost
        library = newLibrary
        (compile, show) = try Self.functions(of: newLibrary)
        keepName = Self.keepName(of: newLibrary)
        origins = [:]
        lastContainer = nil
        observe(newHost)
        // `:use` survives a reload while its configuration does.
        if let configuration, newHost.registry.configuration(configuration) != nil { newHost.defaultConfiguration = configuration }
        old.lua.stopGarbageCollector()
        retiredHosts.append(old)
        return RegistrationChanges(before: before, after: try Self.registrationSummary(newHost, library: newLibrary))
    }

    // MARK: Evaluating

    /// Runs the lines typed so far (one chunk): an expression's values are
    /// printed, pretty; a statement runs; an unfinished chunk asks for more.
    public func submit(_ lines: [String]) -> Submission {
        submit(bytes: lines.map { Array($0.utf8) })
    }

    /// The same, for lines as they were read (bytes that are not UTF-8 reach Lua as they are).
    public func submit(bytes lines: [[UInt8]]) -> Submission {
        let outcome = ChunkReader.read(lines, keepName: keepName) { code in
            guard let result = try? compile.call(.string(LuaString(bytes: code))) else { return "cannot compile" }
            if case .function? = result.first { return nil }
            if result.count > 1, case .string(let message) = result[1] { return message.description }
            return "cannot compile"
        }
        switch outcome {
        case .incomplete:
            return .incomplete
        case .syntaxError(let message):
            output.error(message)
            return .failed
        case .ready(let code, _):
            return run(code)
        }
    }

    /// Compiles and runs `code` in the prompt's environment; prints the results.
    @discardableResult
    func run(_ code: [UInt8], printing: Bool = true) -> Submission {
        do {
            guard case .function(let function)? = try compile.call(.string(LuaString(bytes: code))).first else {
                output.error("cannot compile the line")
                return .failed
            }
            host.lua.interruptOnControlC(true)
            defer { host.lua.interruptOnControlC(false) }
            let strayBefore = host.unaddedRegistrations().count
            let results = try function.call()
            // `register` typed outside a configuration: said now, not only at :check.
            for stray in host.unaddedRegistrations().dropFirst(strayBefore) {
                output.note("note: \(stray.origin.map { "\($0): " } ?? "")\(stray.message) yet (put it in one: configuration \"app\" { register … })")
            }
            if printing && !results.isEmpty {
                let text = try show.call(arguments: results).first.flatMap { value -> String? in
                    if case .string(let text) = value { return text.description }
                    return nil
                } ?? ""
                output.result(text)
            }
            return .done
        } catch let error as LuaError {
            output.error(Self.report(error))
            return .failed
        } catch {
            output.error(String(describing: error))
            return .failed
        }
    }

    /// An error as the prompt shows it: the message, then the traceback's
    /// frames that are the user's (not the REPL's own).
    static func report(_ error: LuaError) -> String {
        var text = error.message
        // Stopped (Ctrl-C, a limit) inside the prompt's own code — its
        // environment's metamethods, say, as a loop assigns a global — it is
        // placed at the user's innermost frame, not "[factoryhost repl]:31".
        let ownPlace = "[factoryhost repl]:"
        if text.hasPrefix(ownPlace), let colon = text.dropFirst(ownPlace.count).firstIndex(of: ":"),
           let place = LuaError.innermostPlace(in: error.traceback) {
            text = place + String(text[colon...])
        }
        if error.kind == .timeLimit || error.kind == .instructionLimit { return text }
        if let traceback = error.traceback {
            let frames = traceback.split(separator: "\n", omittingEmptySubsequences: false).filter {
                !$0.contains("[factoryhost repl]") && $0 != "\t[C]: in ?"
            }
            if frames.count > 1 { text += "\n" + frames.joined(separator: "\n") }
        }
        return text
    }

    /// Evaluates `code` as an expression (the `return` form, in the prompt's
    /// environment) and returns its first value.
    /// ``value(of:)`` for code that is bytes, not text.
    func value(ofBytes code: [UInt8]) throws -> LuaValue {
        let source = LuaValue.string(LuaString(bytes: Array("return ".utf8) + code))
        guard case .function(let function)? = try compile.call(source).first else {
            if case .string(let text)? = (try? compile.call(source))?.dropFirst().first { throw LuaError(.syntax, text.description) }
            throw LuaError(.syntax, "not an expression: \(TextEscaping.shownBytes(code))")
        }
        host.lua.interruptOnControlC(true)
        defer { host.lua.interruptOnControlC(false) }
        return try function.call().first ?? .nil
    }

    func value(of code: String) throws -> LuaValue {
        guard case .function(let function)? = try compile.call(LuaValue("return " + code)).first else {
            let message = (try? compile.call(LuaValue("return " + code)))?.dropFirst().first
            if case .string(let text)? = message { throw LuaError(.syntax, text.description) }
            throw LuaError(.syntax, "not an expression: \(code)")
        }
        host.lua.interruptOnControlC(true)
        defer { host.lua.interruptOnControlC(false) }
        return try function.call().first ?? .nil
    }

    /// Lua's message for `code` if it does not compile (nil if it does).
    func compileMessage(_ code: [UInt8]) throws -> LuaValue? {
        let result = try compile.call(.string(LuaString(bytes: code)))
        return result.count > 1 ? result[1] : nil
    }

    /// `value` pretty-printed as the prompt prints it.
    func pretty(_ value: LuaValue) -> String {
        guard case .string(let text)? = interruptible({ try? show.call(value).first }) ?? nil else { return String(describing: value) }
        return text.description
    }

    // MARK: Describing Swift objects

    /// For the pretty printer: a Swift object's type, where it came from, and
    /// its exported properties (`{ type = …, origin = …, properties = { names } }`).
    func description(of value: LuaValue, in host: FactoryHost) throws -> LuaValue {
        if case .table = value {
            // A table a Lua factory built: where it came from (the printer shows the table itself).
            guard let origin = origin(of: value) else { return .nil }
            let table = try host.lua.newTable(hashCapacity: 1)
            try table.rawSet("origin", LuaValue(origin.text))
            return .table(table)
        }
        guard case .userdata(let userdata) = value, let object = userdata.object(as: AnyObject.self),
              let members = host.types.members(ofClass: userdata.typeName) else { return .nil }
        let table = try host.lua.newTable(hashCapacity: 3)
        try table.rawSet("type", LuaValue(userdata.typeName))
        if let origin = origin(of: object) { try table.rawSet("origin", LuaValue(origin.text)) }
        let properties = try host.lua.newTable(arrayCapacity: members.properties.count)
        for (index, name) in members.properties.enumerated() { try properties.rawSet(.integer(index + 1), LuaValue(name)) }
        try table.rawSet("properties", .table(properties))
        return .table(table)
    }

    /// Where `object` came from: the registration that built it and the
    /// container (and open scope) holding it, if the session knows.
    func origin(of object: AnyObject) -> ObjectOrigin? {
        if let entry = origins[ObjectIdentifier(object)], entry.object.object === object {
            return origin(entry.registration, entry.container.container) { ($0 as AnyObject) === object }
        }
        return origin(held: { ($0 as AnyObject) === object })
    }

    /// The same for a value at the prompt: a Swift object, or a table a Lua
    /// factory built (nil for anything else).
    func origin(of value: LuaValue) -> ObjectOrigin? {
        switch value {
        case .userdata(let userdata):
            return userdata.object(as: AnyObject.self).flatMap { origin(of: $0) }
        case .table(let table):
            let same = Self.sameTable(table)
            if case .integer(let number)? = try? builtTables?.rawGet(.table(table)), let entry = tableOrigins[Int(number)] {
                return origin(entry.registration, entry.container.container, same)
            }
            return origin(held: same)
        default:
            return nil
        }
    }

    /// Whether a live instance is `table` (by its address in Lua).
    static func sameTable(_ table: LuaTable) -> (Any) -> Bool {
        { instance in
            if let held = instance as? LuaTable { return held.identity == table.identity }
            // An interface's Lua implementation is held as its adapter.
            return (instance as? LuaImplemented)?.implementation.table.identity == table.identity
        }
    }

    private func origin(_ registration: Registration, _ container: Container?, _ same: (Any) -> Bool) -> ObjectOrigin {
        let scope = container?.holder(where: same)?.scope
        return ObjectOrigin(registration: registration, container: container, scope: scope,
                            isHeld: container?.holder(where: same) != nil, text: Self.describe(registration, scope: scope))
    }

    /// An instance the current (or last used) container holds.
    private func origin(held same: (Any) -> Bool) -> ObjectOrigin? {
        for container in [host.currentContainer, lastContainer?.container].compactMap({ $0 }) {
            if let (live, scope) = container.holder(where: same) {
                return ObjectOrigin(registration: live.registration, container: container, scope: scope, isHeld: true,
                                    text: Self.describe(live.registration, scope: scope))
            }
        }
        return nil
    }

    /// Notes that a Lua factory of `registration` built `table` (in the Lua
    /// half's weak-keyed `built`, so that a collected table is forgotten).
    private func remember(_ table: LuaTable, builtBy registration: Registration, in container: Container) {
        guard let builtTables else { return }
        if tableOrigins.count >= 4096 {
            // The oldest half goes (a singleton among them is still found through its container).
            let kept = Set(tableOrigins.keys.sorted().suffix(2048))
            tableOrigins = tableOrigins.filter { kept.contains($0.key) }
        }
        nextTableOrigin += 1
        guard (try? builtTables.rawSet(.table(table), .integer(nextTableOrigin))) != nil else { return }
        tableOrigins[nextTableOrigin] = (registration, WeakContainer(container))
    }

    /// The Lua half's weak-keyed table of built tables.
    private var builtTables: LuaTable? {
        if case .table(let built)? = try? library.rawGet("built") { return built }
        return nil
    }

    /// The container commands look at: the one plain `resolve` uses, else
    /// the one the prompt last resolved from.
    var focusedContainer: Container? { host.currentContainer ?? lastContainer?.container }

    /// `MovieLoader [screen] in 'app', movies_configuration.lua:12`.
    static func describe(_ registration: Registration, scope: ScopeHandle? = nil) -> String {
        "\(registration.key) [\(registration.scope)] in '\(registration.configuration)', \(registration.origin)"
    }

    /// For completion: a Swift object's exported members (`{ { name =, kind = } }`).
    static func members(of value: LuaValue, in host: FactoryHost) throws -> LuaValue {
        guard case .userdata(let userdata) = value, let members = host.types.members(ofClass: userdata.typeName) else { return .nil }
        let list = try host.lua.newTable(arrayCapacity: members.methods.count + members.properties.count)
        var index = 1
        for (names, kind) in [(members.methods, "method"), (members.properties, "property")] {
            for name in names {
                let entry = try host.lua.newTable(hashCapacity: 2)
                try entry.rawSet("name", LuaValue(name))
                try entry.rawSet("kind", LuaValue(kind))
                try list.rawSet(.integer(index), .table(entry))
                index += 1
            }
        }
        return .table(list)
    }

    // MARK: Completion

    /// The words that complete the end of `text` (the line up to the
    /// cursor), and how many characters of `text` they replace.
    public func completions(for text: String) -> (candidates: [String], replacing: Int) {
        guard case .function(let complete) = (try? library.rawGet("complete")) ?? .nil else { return ([], 0) }
        let lua = host.lua
        do {
            try host.installPendingPlugins()      // the plugins' configurations and keys complete too
            let keys = try lua.frameFunction("keys") { [unowned self] frame in
                try frame.push(.table(self.stringList(self.registrationKeys())))
                return 1
            }
            let configurations = try lua.frameFunction("configurations") { [unowned self] frame in
                try frame.push(.table(self.stringList(self.host.registry.configurationNames)))
                return 1
            }
            let results = try complete.call(LuaValue(text), .function(keys), .function(configurations),
                                            .table(stringList(REPLCommand.all.map(\.name))))
            guard case .table(let list)? = results.first else { return ([], 0) }
            let candidates = try list.array().compactMap { value -> String? in
                if case .string(let text) = value { return text.description }
                return nil
            }
            let replacing = results.count > 1 ? ((try? Int.fromLua(results[1])) ?? 0) : 0
            return (candidates, replacing)
        } catch {
            return ([], 0)
        }
    }

    /// The keys `resolve "…"` can name in the session's configuration (all
    /// configurations' if none is chosen), sorted.
    func registrationKeys() -> [String] {
        let names = host.defaultConfiguration.map { [$0] } ?? host.registry.configurationNames
        var keys = Set<String>()
        for name in names {
            for registration in (try? host.registry.registrations(in: name)) ?? [] { keys.insert(registration.key.description) }
        }
        return keys.sorted()
    }

    private func stringList(_ items: [String]) throws -> LuaTable {
        let table = try host.lua.newTable(arrayCapacity: items.count)
        for (index, item) in items.enumerated() { try table.rawSet(.integer(index + 1), LuaValue(item)) }
        return table
    }

    /// Each registration (`configuration: key`) by what it is made of:
    /// scope, dependencies, arguments, values, each parameter's value and
    /// `make`'s code (through the Lua half's `fingerprint`), for `:reload`.
    static func registrationSummary(_ host: FactoryHost, library: LuaTable) throws -> [String: RegistrationChanges.Aspects] {
        try host.installPendingPlugins()          // the plugins' registrations are the session's too
        let fingerprint: LuaFunction? = if case .function(let function)? = try? library.rawGet("fingerprint") { function } else { nil }
        func print(_ value: LuaValue) -> String? {
            guard let fingerprint, case .string(let text)? = try? fingerprint.call(value).first else { return nil }
            return text.description
        }
        var summary: [String: RegistrationChanges.Aspects] = [:]
        for name in host.registry.configurationNames {
            for registration in host.registry.configuration(name)?.registrations ?? [] {
                var aspects = RegistrationChanges.Aspects()
                aspects.scope = "\(registration.scope)"
                aspects.dependencies = registration.dependencies.map(\.description).joined(separator: ", ")
                aspects.arguments = registration.arguments.map { "\($0.name): \($0.type)" }.joined(separator: ", ")
                aspects.values = registration.values.map(\.description).joined(separator: ", ")
                if let parts = host.scriptParts(of: registration) {
                    aspects.make = print(.function(parts.make))
                    for parameter in parts.parameters { aspects.parameters[parameter.name] = print(parameter.value) ?? "?" }
                }
                summary["\(name): \(registration.key)"] = aspects
            }
        }
        return summary
    }
}

/// Where an object at the prompt came from: the registration that built it,
/// the container (and open scope) that holds it, and that as text.
struct ObjectOrigin {
    let registration: Registration
    let container: Container?
    let scope: ScopeHandle?
    /// Whether the container (or one of its open scopes) holds it: false for a transient.
    let isHeld: Bool
    let text: String
}

final class WeakObject {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}

final class WeakContainer {
    weak var container: Container?
    init(_ container: Container) { self.container = container }
}
