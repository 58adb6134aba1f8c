import FactoryhostSupport
import FactoryRegistry
import LuaBridge

/// One thing `check` reports, whatever found it — the validator (a missing
/// dependency, a cycle…), the script (an error declaring), or the dry run (a
/// declaration it never reached) — in one shape, printed one way.
///
/// ```swift
/// let run = host.declare(file: "main.lua")
/// for problem in host.problems(after: run) { print(problem) }
/// // main.lua:7: no registration for HTTPSession in configuration 'app'
/// //   required by MovieLoader as session: HTTPSession
/// ```
public struct CheckProblem: CustomStringConvertible, Equatable {
    /// A `RegistryError.Kind` raw value, `declarationError` or `notChecked`.
    public var kind: String
    /// What is wrong, in one line (without the place).
    public var message: String
    /// The configuration it was found in, if any (the first, when it holds in several).
    public var configuration: String?
    /// Every configuration it holds in: one problem declared in `app` is found
    /// again in each configuration extending `app`, and reported once.
    public var configurations: [String] = []
    /// Where (`file:line`), when known.
    public var origin: Origin?
    /// The keys involved, outermost first (a resolution path, a cycle).
    public var path: [String] = []
    /// Further lines: origins, hints.
    public var details: [String] = []
    /// The key nothing registers, for a missing dependency found by validation
    /// (``DependencyLines`` moves the problem to the line naming it).
    var missingKey: String?

    /// A problem of `kind` (see ``kind``) saying `message`.
    public init(kind: String, message: String, configuration: String? = nil, origin: Origin? = nil,
                path: [String] = [], details: [String] = []) {
        self.kind = kind
        self.message = message
        self.configuration = configuration
        self.configurations = configuration.map { [$0] } ?? []
        self.origin = origin
        self.path = path
        self.details = details
    }

    /// A validation problem.
    public init(_ error: RegistryError) {
        self.init(kind: error.kind.rawValue, message: error.message, configuration: error.configuration,
                  origin: error.origin, path: error.path, details: error.detailLines)
        missingKey = error.missingKey
    }

    /// `origin: message in configuration 'c'` (`in configurations 'a', 'b'`), then each detail indented.
    /// One head line, then a line per detail: each kept on its line (a
    /// newline in a name or a message is written `\n`), so no text a script
    /// declared can forge a `file:line: problem` line.
    public var description: String {
        var head = origin.map { "\($0): " } ?? ""
        head += MessageText.oneLine(message)
        if configurations.count > 8 {
            // 3,000 names were a 4 KB line cut in the middle ("27948 bytes left out"): the first, the last, how many.
            head += " in configurations " + configurations.prefix(5).map { "'\($0)'" }.joined(separator: ", ")
                + ", …, '\(configurations[configurations.count - 1])' (\(configurations.count) configurations)"
        } else if configurations.count > 1 {
            head += " in configurations " + configurations.map { "'\($0)'" }.joined(separator: ", ")
        } else if let configuration, !message.contains("configuration '\(configuration)'") {
            head += " in configuration '\(configuration)'"
        }
        return ([head] + details.map { "  " + MessageText.oneLine($0) }).joined(separator: "\n")
    }
}

extension FactoryHost {
    /// Everything `check` reports after `run`: the error the script raised
    /// declaring, the declarations it never reached, then every validation
    /// problem of `configuration` (or of all).
    public func problems(after run: DeclarationRun, configuration: String? = nil) -> [CheckProblem] {
        var problems: [CheckProblem] = []
        // A module that did not load (a syntax error in it): its declarations were never run, and that is the one problem.
        var unloadedFile: String?
        if let error = run.error {
            let (origin, message, file) = placeAndMessage(of: error)
            unloadedFile = file
            // A registry error's text is its message, then its details, each
            // on a line of its own, indented: kept as details (each stays one line).
            let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
            problems.append(CheckProblem(kind: "declarationError", message: String(lines.first ?? ""), origin: origin,
                                         details: lines.dropFirst().map { String($0.hasPrefix("  ") ? $0.dropFirst(2) : $0) }))
        }
        problems += run.declarationErrors
        for site in run.unreached where site.origin.file != unloadedFile {
            problems.append(CheckProblem(kind: "notChecked", message: "\(site.declaration) was not checked", origin: site.origin,
                                         details: [site.reason, site.hint]))
        }
        var stopped = false
        do {
            if configuration.map({ registry.configuration($0) != nil }) ?? true {
                let found = try check(configuration, stoppingAfter: Self.checkProblemLimit)
                problems += found.problems.map(CheckProblem.init)
                stopped = found.stopped
            }
        } catch {
            // A deferred plugin that failed to install: nothing of it could be checked.
            problems.append(CheckProblem(kind: "pluginError", message: (error as? LuaError)?.message ?? String(describing: error)))
        }
        problems += unknownSpecConfigurations()
        var lines = DependencyLines(standardInput: run.standardInputSource)
        lines.pointAtDependencyLines(&problems)
        var ordered = Self.inLineOrder(Self.mergingRepeats(problems))
        if ordered.count > Self.checkProblemLimit {
            ordered.removeLast(ordered.count - Self.checkProblemLimit)
            stopped = true
        }
        if stopped {
            // Like a compiler's error limit: past it, more is noise, and costs time and memory.
            ordered.append(CheckProblem(kind: "checkStopped",
                                        message: "check stopped after \(Self.checkProblemLimit) problems (each counted once in every configuration it is in, "
                                                 + "so a problem may name only some of them): fix these, and check again"))
        }
        return ordered
    }

    /// How many problems `check` finds before it stops looking.
    static let checkProblemLimit = 5_000

    /// Problems in the order a reader meets them in the sources: by file (in
    /// the order the files first appear), then line; a problem without a
    /// place last. (Stable: two at one line keep their order.)
    static func inLineOrder(_ problems: [CheckProblem]) -> [CheckProblem] {
        var fileOrder: [String: Int] = [:]
        for problem in problems { if let file = problem.origin?.file, fileOrder[file] == nil { fileOrder[file] = fileOrder.count } }
        return problems.enumerated().sorted { a, b in
            let x = a.element.origin.map { (fileOrder[$0.file] ?? 0, $0.line) } ?? (Int.max, 0)
            let y = b.element.origin.map { (fileOrder[$0.file] ?? 0, $0.line) } ?? (Int.max, 0)
            return x != y ? x < y : a.offset < b.offset
        }.map(\.element)
    }

    /// Where a script's `error` happened and what it says there: the place
    /// it carries as data (``LuaError/place``) — for a module that did not
    /// compile, the place in that module, as Lua names its chunk — else the
    /// innermost place of its traceback; with the file of a module that did
    /// not load.
    func placeAndMessage(of error: any Error) -> (origin: Origin?, message: String, unloadedFile: String?) {
        guard let error = error as? LuaError else { return (nil, String(describing: error), nil) }
        if let (file, inner) = Self.moduleLoadingFailure(error.message) {
            // The module's syntax error, `<its chunk>:<line>: …`: its chunk is known, so its place is too.
            let chunk = chunkID("@" + file)
            let digits = inner.utf8.dropFirst(chunk.utf8.count + 1).prefix { $0 >= 48 && $0 <= 57 }
            if inner.hasPrefix(chunk + ":"), let line = Int(String(decoding: digits, as: UTF8.self)),
               inner.utf8.dropFirst(chunk.utf8.count + 1 + digits.count).starts(with: ": ".utf8) {
                return (Origin(file: chunk, line: line), String(inner.utf8.dropFirst(chunk.utf8.count + 3 + digits.count)) ?? inner, file)
            }
            return (Self.innermostPlace(error.traceback), inner, file)
        }
        return (error.place.map { Origin(file: $0.file, line: $0.line) } ?? Self.innermostPlace(error.traceback),
                error.messageAfterPlace, nil)
    }

    /// `error loading module 'm' from file 'lib/m.lua':\n\tlib/m.lua:4: '}' expected`
    /// (require's words for a module that does not compile) → the file and
    /// `lib/m.lua:4: '}' expected`, which says it all with its place.
    static func moduleLoadingFailure(_ text: String) -> (file: String, message: String)? {
        guard text.hasPrefix("error loading module '"), let fromFile = text.firstRange(of: "' from file '"),
              let end = text[fromFile.upperBound...].firstRange(of: "':\n\t") else { return nil }
        let file = String(text[fromFile.upperBound..<end.lowerBound])
        let message = String(text[end.upperBound...])
        return message.hasPrefix(file + ":") ? (file, message) : nil
    }

    /// One problem per finding: the same problem found in several configurations
    /// (declared in `app`, found again in each configuration extending it) is one,
    /// naming them all; a problem said twice in one place is said once.
    static func mergingRepeats(_ problems: [CheckProblem]) -> [CheckProblem] {
        struct Finding: Hashable { var kind, message: String; var origin: Origin?; var path, details: [String] }
        var seen: [Finding: Int] = [:]
        var merged: [CheckProblem] = []
        merged.reserveCapacity(problems.count)
        for problem in problems {
            let finding = Finding(kind: problem.kind, message: problem.message, origin: problem.origin,
                                  path: problem.path, details: problem.details)
            if let index = seen[finding] {
                for name in problem.configurations where !merged[index].configurations.contains(name) {
                    merged[index].configurations.append(name)
                }
            } else {
                seen[finding] = merged.count
                merged.append(problem)
            }
        }
        return merged
    }
}

/// What `check` looked at, as its last line says it: the configurations, the
/// registrations the scripts wrote, and — where configurations extend others —
/// the registrations checked (each configuration with what it inherits).
///
/// ```swift
/// CheckSummary(host.registry, configurations: ["app", "app-tests"]).description
/// // "2 configurations, 11 registrations declared (21 with inherited ones)"
/// ```
public struct CheckSummary: CustomStringConvertible, Sendable {
    /// How many configurations.
    public let configurations: Int
    /// The registrations written in them (each once).
    public let declared: Int
    /// The registrations checked: each configuration's own and inherited ones.
    public let checked: Int

    /// The summary of `names` in `registry`.
    public init(_ registry: Registry, configurations names: [String]) {
        configurations = names.count
        declared = names.reduce(0) { $0 + (registry.configuration($1)?.registrations.count ?? 0) }
        let counts = names.count > 1 ? registry.registrationCounts() : [:]      // each chain walked once
        checked = names.reduce(0) { $0 + (counts[$1] ?? (try? registry.registrationCount(in: $1)) ?? 0) }
    }

    public var description: String {
        let head = "\(configurations) configuration\(configurations == 1 ? "" : "s"), \(declared) registration\(declared == 1 ? "" : "s")"
        return checked == declared ? head : head + " declared (\(checked) with inherited ones)"
    }
}
