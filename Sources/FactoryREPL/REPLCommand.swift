import FactoryRegistry
import FactoryScripting
import FactoryhostSupport
import LuaBridge

/// The REPL's own commands, typed at the prompt after a colon (`:help`).
/// Each works on piped input too.
struct REPLCommand {
    let name: String
    let arguments: String
    let summary: String

    static let all: [REPLCommand] = [
        REPLCommand(name: "help", arguments: "[command]", summary: "these commands, or one"),
        REPLCommand(name: "configs", arguments: "", summary: "configurations: what each extends, registrations, where declared"),
        REPLCommand(name: "regs", arguments: "[config] [text]", summary: "registrations: key, scope, dependencies, origin"),
        REPLCommand(name: "graph", arguments: "KEY [config]", summary: "what KEY needs, as a tree; ● marks what the container holds now"),
        REPLCommand(name: "inspect", arguments: "EXPR", summary: "a live object: its registration, holder, members"),
        REPLCommand(name: "live", arguments: "[EXPR]", summary: "what a container holds now: singletons, open scopes and theirs"),
        REPLCommand(name: "use", arguments: "CONFIG", summary: "plain resolve \"X\" uses a new container of CONFIG from now on"),
        REPLCommand(name: "check", arguments: "", summary: "the check command's report for the session's configurations"),
        REPLCommand(name: "reload", arguments: "", summary: "run the script again in a fresh host and say what changed"),
        REPLCommand(name: "time", arguments: "EXPR", summary: "evaluate EXPR and say how long it took"),
        REPLCommand(name: "quit", arguments: "", summary: "end the session (as Ctrl-D does)"),
    ]
}

extension REPLSession {
    /// `:use staging eu` when configuration "staging eu" exists (or `:graph`
    /// of a key with a space): the quoted command that names it, else "".
    static func quotingHint(_ name: String, words: [String], configurations: [String], keys: [String]) -> String {
        let joined = words.joined(separator: " ")
        let names = name == "use" ? configurations : name == "graph" ? keys : []
        guard names.contains(joined) else { return "" }
        let quote = joined.contains("\"") ? "'" : "\""
        return "; to name '\(MessageText.oneLine(joined))', quote it: :\(name) \(quote)\(joined)\(quote)"
    }

    /// Runs a `:command` line. Returns false when the session should end.
    /// The same, for a line as it was read: an expression that is not
    /// UTF-8 text (`:inspect #"\xFF"`) is evaluated as its bytes, as a
    /// plain line is (it was evaluated repaired: 3 bytes for one); a name
    /// or key that is not text is refused, shown as its bytes.
    public func command(bytes line: [UInt8]) -> Bool {
        let text = String(decoding: line, as: UTF8.self)
        guard String(validating: line, as: UTF8.self) == nil else { return command(text) }
        let isSpace: (UInt8) -> Bool = { $0 == 32 || $0 == 9 }
        let body = line.drop(while: isSpace).dropFirst().drop(while: isSpace)        // after ':'
        let name = String(decoding: body.prefix { !isSpace($0) }, as: UTF8.self)
        var rest = body.drop { !isSpace($0) }.drop(while: isSpace)
        while let last = rest.last, isSpace(last) { rest = rest.dropLast() }
        if ["inspect", "live", "time"].contains(name) {
            expressionBytes = Array(rest)
            defer { expressionBytes = nil }
            return command(text)
        }
        if REPLCommand.all.contains(where: { $0.name == name }) || ["q", "exit", "h", "?"].contains(name) {
            output.error(":\(name): '\(TextEscaping.shownBytes(rest.prefix(200)))' is not UTF-8 text: "
                         + "configurations, keys and commands are named in text")
            return true
        }
        return command(text)
    }

    public func command(_ line: String) -> Bool {
        let body = line.drop { $0 == " " || $0 == "\t" }.dropFirst().drop { $0 == " " || $0 == "\t" }   // after ':'
        let name = String(body.prefix { $0 != " " && $0 != "\t" })
        let rest = String(body.dropFirst(name.count)).trimmingSpaces()
        // Words are split at spaces and tabs; a name holding either is quoted ("app tests", 'table#B b').
        guard let words = Self.words(rest) else {
            output.error(":\(name): a quote is not closed in '\(MessageText.oneLine(MessageText.bounded(rest, limit: 200)))'")
            return true
        }
        // What the commands read (configurations, registrations, types) includes
        // the Swift plugins', installed now if nothing has yet; a plugin that
        // cannot be installed is said, not skipped.
        if !["help", "h", "?", "reload", "quit", "q", "exit"].contains(name) {
            do {
                try host.installPendingPlugins()
            } catch {
                output.error((error as? LuaError)?.message ?? String(describing: error))
                return true
            }
        }
        // A command that takes nothing says so of what it was given (`:check app` read as checking only app).
        if let command = REPLCommand.all.first(where: { $0.name == name || (name == "q" || name == "exit") && $0.name == "quit" }),
           command.arguments.isEmpty, command.name != "help", !rest.isEmpty {
            output.error(":\(name) takes no arguments (got '\(MessageText.oneLine(MessageText.bounded(rest, limit: 200)))'): \(command.summary)")
            return true
        }
        // …and one that takes words, more than it takes (`:graph KEY app extra` drew app's graph, the rest unread).
        if let most = ["graph": 2, "use": 1, "help": 1, "h": 1, "?": 1][name], words.count > most {
            let usage = REPLCommand.all.first { $0.name == name }.map { ":\($0.name) \($0.arguments)" } ?? ":\(name)"
            output.error(":\(name) takes at most \(most) word\(most == 1 ? "" : "s") (\(usage)); "
                         + "left over: '\(MessageText.oneLine(MessageText.bounded(words.dropFirst(most).joined(separator: " "), limit: 200)))'"
                         + Self.quotingHint(name, words: words, configurations: host.registry.configurationNames, keys: registrationKeys()))
            return true
        }
        switch name {
        case "help", "h", "?": help(words.first)
        case "configs": configs()
        case "regs": regs(words)
        case "graph": graph(words)
        case "inspect": inspect(rest)
        case "live": live(rest)
        case "use": use(words)
        case "check": check()
        case "reload": reloadCommand()
        case "time": time(rest)
        case "quit", "q", "exit": return false
        default:
            let known = REPLCommand.all.map { ":" + $0.name }.joined(separator: ", ")
            let near = NameSuggestion.closest(to: name, among: REPLCommand.all.map(\.name)).map { ", did you mean :\($0)?" } ?? ""
            output.error(":\(name) is not a command\(near) (commands: \(known); :help says what each does)")
        }
        return true
    }

    /// `text`'s words: split at spaces and tabs, a quoted part ("…" or '…')
    /// one word without its quotes; nil when a quote is not closed.
    static func words(_ text: String) -> [String]? {
        var words: [String] = [], word = "", quote: Character?, inWord = false
        for character in text {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                inWord = true
            } else if character == " " || character == "\t" {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(character)
                inWord = true
            }
        }
        guard quote == nil else { return nil }
        if inWord { words.append(word) }
        return words
    }

    /// Every command, or `command`'s line alone (`:help regs`).
    private func help(_ command: String?) {
        if let command {
            let name = command.hasPrefix(":") ? String(command.dropFirst()) : command
            guard let found = REPLCommand.all.first(where: { $0.name == name }) else {
                let near = NameSuggestion.closest(to: name, among: REPLCommand.all.map(\.name)).map { ", did you mean :\($0)?" } ?? ""
                return output.error("no command :\(MessageText.oneLine(MessageText.bounded(name, limit: 200)))\(near) (:help lists them)")
            }
            return output.result(":" + found.name + (found.arguments.isEmpty ? "" : " " + found.arguments) + "  " + found.summary)
        }
        var lines = ["Lua at the prompt: an expression prints its values, a statement runs; `local` names stay for later lines.",
                     "Commands:"]
        let width = REPLCommand.all.map { $0.name.count + $0.arguments.count + 2 }.max() ?? 0
        for command in REPLCommand.all {
            let head = ":" + command.name + (command.arguments.isEmpty ? "" : " " + command.arguments)
            lines.append("  " + head + String(repeating: " ", count: max(1, width + 2 - head.count)) + command.summary)
        }
        lines.append("Ctrl-C stops running code (twice: the process, if the code cannot be stopped); Ctrl-D ends the session.")
        output.result(lines.joined(separator: "\n"))
    }

    private func configs() {
        let registry = host.registry
        let names = registry.configurationNames
        guard !names.isEmpty else { return output.result("no configurations (declare one: configuration \"app\" { … })") }
        var lines: [String] = []
        // Each chain walked once: counting each configuration from its root was
        // quadratic in an extends chain (8,000: 26 s).
        let counts = registry.registrationCounts()
        for name in names {
            guard let configuration = registry.configuration(name) else { continue }
            let all = counts[name] ?? (try? registry.registrationCount(in: name)) ?? 0
            var line = name + (configuration.parent.map { " extends \($0)" } ?? "")
            line += " — \(all) registration\(all == 1 ? "" : "s")"
            if configuration.parent != nil { line += " (\(configuration.registrations.count) of its own)" }
            line += ", \(configuration.origin)"
            if name == host.configurationInUse { line += "  (in use)" }
            lines.append(line)
        }
        output.result(lines.joined(separator: "\n"))
    }

    private func regs(_ words: [String]) {
        let registry = host.registry
        var words = words
        var configuration = host.configurationInUse
        if let first = words.first, registry.configuration(first) != nil {
            configuration = first
            words.removeFirst()
        }
        let text = words.joined(separator: " ")
        guard let configuration else {
            return output.error(":regs needs a configuration: :regs CONFIG [text], or :use CONFIG first (configurations: "
                                + MessageText.list(registry.configurationNames) + ")")
        }
        guard let registrations = try? registry.registrations(in: configuration) else {
            return output.error("no configuration named '\(MessageText.oneLine(configuration))'")
        }
        let shown = registrations.filter { text.isEmpty || $0.key.description.contains(text) }
        guard !shown.isEmpty else {
            // The text as given, bounded (a 60 KB search was echoed whole).
            return output.result("no registration in '\(configuration)' contains \"\(MessageText.oneLine(MessageText.bounded(text, limit: 200)))\"")
        }
        let lines = shown.map { registration -> String in
            var line = "\(registration.key) [\(registration.scope)]"
            let wants = registration.dependencies.map { ($0.label.map { "\($0): " } ?? "") + $0.key.description }
                + registration.values.map(\.description)
            if !wants.isEmpty { line += " ← " + wants.joined(separator: ", ") }
            if !registration.arguments.isEmpty { line += " args(\(registration.arguments.map(\.description).joined(separator: ", ")))" }
            if !registration.parameters.isEmpty { line += " params(\(registration.parameters.map(\.description).joined(separator: "; ")))" }
            return line + "  " + registration.origin.description
                // (A collection's collector is the configuration's own: it has no configuration of its own to name.)
                + (!registration.configuration.isEmpty && registration.configuration != configuration
                   ? " (from \(registration.configuration))" : "")
        }
        output.result(lines.joined(separator: "\n"))
    }

    private func graph(_ words: [String]) {
        guard let keyText = words.first else { return output.error("usage: :graph KEY [config]") }
        let configuration = words.count > 1 ? words[1] : host.configurationInUse
        guard let configuration else {
            return output.error(":graph needs a configuration: :graph KEY CONFIG, or :use CONFIG first")
        }
        do {
            let key = try host.serviceKey(parsing: keyText)
            let graph = try host.registry.graph(of: configuration, root: key)
            let container = focusedContainer.flatMap { $0.configuration == configuration ? $0 : nil }
            var alive = Set<String>()
            if let container {
                for live in container.liveSingletons() { alive.insert(live.registration.key.description) }
                for scope in container.openScopes {
                    for live in scope.liveInstances() { alive.insert(live.registration.key.description) }
                }
            }
            output.result(graph.renderTree { alive.contains($0.key) ? "●" : nil })
        } catch {
            // `SignupService` for `table#SignupService`: the key registered under that name, said.
            let named = keyText.contains("#") ? [] : registrationKeys().filter { $0.hasSuffix("#" + keyText) }
            output.error(String(describing: error) + (named.isEmpty ? "" : "\n  registered: " + named.prefix(5).joined(separator: ", ")
                                                       + (named.count == 1 ? " — did you mean :graph \(named[0])?" : "")))
        }
    }

    private func inspect(_ expression: String) {
        guard !expression.isEmpty else { return output.error("usage: :inspect EXPR") }
        do {
            let value = try expressionBytes.map(self.value(ofBytes:)) ?? self.value(of: expression)
            var lines = [pretty(value)]
            let isObject: Bool
            switch value {
            case .userdata(let userdata): isObject = userdata.object(as: AnyObject.self) != nil
            case .table: isObject = true          // a table a Lua factory built, or a plain one
            default: isObject = false
            }
            if isObject {
                if let origin = origin(of: value) {
                    lines.append("registration: \(REPLSession.describe(origin.registration))")
                    var held = origin.container.map { "held by: a container of '\($0.configuration)'" } ?? "held by: nothing (transient)"
                    if let scope = origin.scope { held += ", in its open '\(scope.name)' scope" }
                    if !origin.isHeld {
                        held = origin.registration.scope == .transient
                            ? "held by: nothing (transient: each resolve makes a new one)"
                            : "held by: nothing now (its container or scope was closed, or it was built for another)"
                    }
                    lines.append(held)
                    if !origin.registration.dependencies.isEmpty {
                        // What it was given: the live instance where the container holds one.
                        lines.append("given:")
                        for dependency in origin.registration.dependencies {
                            let label = dependency.label.map { "\($0): " } ?? ""
                            var held = origin.container?.liveSingletons().first { $0.registration.key == dependency.key }
                            var scope = origin.scope
                            while held == nil, let current = scope {
                                held = current.liveInstances().first { $0.registration.key == dependency.key }
                                scope = current.parent
                            }
                            // Built for one not held in a scope (a transient): the open scopes' instances of
                            // the key are what it may have been given — which one is not recorded.
                            var inOpenScopes: [(scope: ScopeHandle, instance: LiveInstance)] = []
                            if held == nil, origin.scope == nil, let container = origin.container {
                                for open in container.openScopes {
                                    for live in open.liveInstances() where live.registration.key == dependency.key {
                                        inOpenScopes.append((open, live))
                                    }
                                }
                            }
                            let shown: String
                            if dependency.kind == .provider { shown = "a provider (makes one per call)" }
                            else if let held { shown = describeInstance(held.instance) }
                            else if inOpenScopes.count == 1, let only = inOpenScopes.first {
                                shown = describeInstance(only.instance.instance) + "  (held by the open '\(only.scope.name)' scope)"
                            } else if inOpenScopes.count > 1 {
                                shown = "one of \(inOpenScopes.count) held by open scopes ("
                                    + Set(inOpenScopes.map { "'\($0.scope.name)'" }).sorted().joined(separator: ", ")
                                    + "): which one it was given is not recorded"
                            } else if case .custom(let scopeName)? = origin.container?.registration(for: dependency.key)?.scope {
                                shown = "(not held now: no open '\(scopeName)' scope holds one — the one it was given was closed with its scope)"
                            } else { shown = "(not held by the container: a new one was built for it)" }
                            lines.append("  \(label)\(dependency.key) = \(shown)")
                        }
                    }
                } else if case .userdata = value {
                    lines.append("registration: unknown (not resolved at this prompt, and not held by the current container)")
                } else {
                    lines.append("registration: none known (a plain table: not built by a factory resolved at this prompt, nor held by the current container)")
                }
                if case .userdata(let userdata) = value, let members = host.types.members(ofClass: userdata.typeName) {
                    if !members.methods.isEmpty { lines.append("methods: " + members.methods.sorted().joined(separator: ", ")) }
                    if !members.properties.isEmpty { lines.append("properties: " + members.properties.joined(separator: ", ")) }
                }
            }
            output.result(lines.joined(separator: "\n"))
        } catch let error as LuaError {
            output.error(REPLSession.report(error))
        } catch {
            output.error(String(describing: error))
        }
    }

    private func live(_ expression: String) {
        var chosen = focusedContainer
        var chosenScope: ScopeHandle?
        if !expression.isEmpty {
            do {
                let value = try expressionBytes.map(self.value(ofBytes:)) ?? self.value(of: expression)
                guard let (container, scope) = host.container(of: value) else {
                    let shown = expressionBytes.map { TextEscaping.shownBytes($0) } ?? expression
                    return output.error(":live \(shown): not a container or a scope (it is \(pretty(value)))")
                }
                chosen = container
                chosenScope = scope
            } catch let error as LuaError {
                return output.error(REPLSession.report(error))
            } catch {
                return output.error(String(describing: error))
            }
        }
        guard let container = chosen else {
            return output.result("no container yet: plain resolve \"X\" makes one of the configuration in use"
                                 + (host.configurationInUse.map { " ('\($0)')" } ?? " (:use CONFIG picks one)"))
        }
        var lines: [String]
        var scopes = container.openScopes
        if let chosenScope {
            // A scope: what it holds, and the scopes open inside it — not the whole container.
            lines = ["scope '\(chosenScope.name)' (\(chosenScope.isClosed ? "closed" : "open")) of a container of '\(container.configuration)'"]
            let held = chosenScope.liveInstances()
            if held.isEmpty { lines.append("  nothing built in it yet") }
            for live in held.prefix(100) {
                lines.append("  \(live.registration.key) = \(describeInstance(live.instance))  \(live.registration.origin)")
            }
            if held.count > 100 { lines.append("  … and \(held.count - 100) more") }
            // In one pass: a scope is opened after the scope it is in, so the list has parents first.
            var inside: Set<ObjectIdentifier> = [ObjectIdentifier(chosenScope)]
            scopes = scopes.filter { scope in
                guard let parent = scope.parent, inside.contains(ObjectIdentifier(parent)) else { return false }
                inside.insert(ObjectIdentifier(scope))
                return true
            }
        } else {
            lines = ["a container of '\(container.configuration)'" + (container.isClosed ? " (closed: it holds nothing and builds nothing)" : "")]
            // The last one the prompt resolved from, when :use has since chosen another configuration: said.
            if expression.isEmpty, host.currentContainer == nil, let inUse = host.configurationInUse, inUse != container.configuration {
                lines[0] += " — the last container the prompt resolved from; '\(inUse)', in use now, has none yet"
            }
            let singletons = container.liveSingletons()
            if !container.isClosed { lines.append(singletons.isEmpty ? "  singletons: none built yet" : "  singletons:") }
            for live in singletons {
                lines.append("    \(live.registration.key) [\(live.registration.scope)] = \(describeInstance(live.instance))  \(live.registration.origin)")
            }
        }
        // Bounded, whatever the script opened: 200 scopes at most, indented
        // up to 16 levels (deeper ones say their depth) — 20,000 nested
        // scopes made a quadratic text (40 s, 1.2 GB) before the output cap.
        let shownScopes = 200, deepestIndent = 16
        for scope in scopes.prefix(shownScopes) {
            var depth = 1
            var parent = scope.parent
            while let outer = parent, depth <= deepestIndent, outer !== chosenScope { depth += 1; parent = outer.parent }
            let indent = String(repeating: "  ", count: min(depth, deepestIndent))
            lines.append("\(indent)scope '\(scope.name)' (open)" + (depth > deepestIndent ? " — nested deeper than \(deepestIndent)" : ""))
            for live in scope.liveInstances().prefix(100) {
                lines.append("\(indent)  \(live.registration.key) = \(describeInstance(live.instance))  \(live.registration.origin)")
            }
        }
        if scopes.count > shownScopes { lines.append("  … and \(scopes.count - shownScopes) more open scopes") }
        output.result(lines.joined(separator: "\n"))
    }

    private func describeInstance(_ instance: Any) -> String {
        guard let value = try? host.types.toLua(instance, in: host.lua),
              case .function(let compact) = (try? library.rawGet("compact")) ?? .nil,
              case .string(let text)? = interruptible({ try? compact.call(value).first }) ?? nil
        else { return String(describing: instance) }
        return text.description
    }

    private func use(_ words: [String]) {
        guard let name = words.first else {
            return output.error("usage: :use CONFIG (configurations: \(MessageText.list(host.registry.configurationNames)))")
        }
        guard host.registry.configuration(name) != nil else {
            return output.error("no configuration named '\(MessageText.oneLine(name))'" + NameSuggestion.didYouMean(name, among: host.registry.configurationNames)
                                + " (configurations: \(MessageText.list(host.registry.configurationNames)))")
        }
        host.defaultConfiguration = name
        host.useContainer(nil)
        output.result("plain resolve \"X\" now uses a new container of '\(name)'")
    }

    private func check() {
        let problems = host.problems(after: DeclarationRun())
        let summary = CheckSummary(host.registry, configurations: host.registry.configurationNames)
        if let reloadFailure {
            // The script on disk did not run: what is checked is the run before it.
            output.error("(the last :reload failed — \(reloadFailure.split(separator: "\n").first ?? "") — so this checks the run before it)")
        }
        if problems.isEmpty { return output.result("ok: \(summary), no problems") }
        output.failed()                                  // a scripted session that finds problems fails, as check does
        let count = problems.count { $0.kind != "checkStopped" }        // (the note that check stopped is no problem; as `check` counts)
        output.result((problems.map(\.description) + ["\(count) problem\(count == 1 ? "" : "s") in \(summary)"])
            .joined(separator: "\n"))
    }

    private func reloadCommand() {
        guard let script = settings.script else { return output.error(":reload needs a script: start with \(ProgramName.current) repl script.lua") }
        guard script != "-" else { return output.error(":reload cannot run standard input again: give the script as a file") }
        do {
            let changes = try reload()
            reloadFailure = nil
            var lines = ["reloaded \(settings.script ?? "") (the prompt's locals and globals went with the old host: resolve again)"]
            if changes.added.isEmpty && changes.removed.isEmpty && changes.changed.isEmpty {
                lines.append("no registration changed")
            }
            lines += changes.added.map { "added:   \($0)" } + changes.removed.map { "removed: \($0)" } + changes.changed.map { "changed: \($0)" }
            output.result(lines.joined(separator: "\n"))
        } catch let error as LuaError {
            reloadFailure = REPLSession.report(error)
            output.error("reload failed, the session goes on with the old host: " + REPLSession.report(error))
        } catch {
            reloadFailure = "\(error)"
            output.error("reload failed, the session goes on with the old host: \(error)")
        }
    }

    private func time(_ expression: String) {
        guard !expression.isEmpty else { return output.error("usage: :time EXPR") }
        let clock = ContinuousClock()
        let started = clock.now
        let outcome = expressionBytes.map { submit(bytes: [$0]) } ?? submit([expression])
        let elapsed = clock.now - started
        switch outcome {
        case .done: output.result("(\(Self.format(elapsed)))")
        case .incomplete: output.error(":time takes one complete line (an expression or a statement)")
        case .failed: break
        }
    }

    static func format(_ duration: Duration) -> String {
        let seconds = duration.inSeconds
        if seconds < 1e-3 { return String(format3: seconds * 1e6) + " µs" }
        if seconds < 1 { return String(format3: seconds * 1e3) + " ms" }
        return String(format3: seconds) + " s"
    }
}

extension String {
    /// Three significant-ish digits: 12.3, 1.23, 123.
    init(format3 value: Double) {
        let rounded = value >= 100 ? (value).rounded() : value >= 10 ? (value * 10).rounded() / 10 : (value * 100).rounded() / 100
        self = rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
