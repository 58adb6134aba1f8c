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
    /// The configuration it was found in, if any.
    public var configuration: String?
    /// Where (`file:line`), when known.
    public var origin: Origin?
    /// The keys involved, outermost first (a resolution path, a cycle).
    public var path: [String] = []
    /// Further lines: origins, hints.
    public var details: [String] = []

    /// A problem of `kind` (see ``kind``) saying `message`.
    public init(kind: String, message: String, configuration: String? = nil, origin: Origin? = nil,
                path: [String] = [], details: [String] = []) {
        self.kind = kind
        self.message = message
        self.configuration = configuration
        self.origin = origin
        self.path = path
        self.details = details
    }

    /// A validation problem.
    public init(_ error: RegistryError) {
        self.init(kind: error.kind.rawValue, message: error.message, configuration: error.configuration,
                  origin: error.origin, path: error.path, details: error.detailLines)
    }

    /// `origin: message in configuration 'c'`, then each detail indented.
    public var description: String {
        var head = origin.map { "\($0): " } ?? ""
        head += message + (configuration.map { " in configuration '\($0)'" } ?? "")
        return ([head] + details.map { "  " + $0 }).joined(separator: "\n")
    }
}

extension FactoryHost {
    /// Everything `check` reports after `run`: the error the script raised
    /// declaring, the declarations it never reached, then every validation
    /// problem of `configuration` (or of all).
    public func problems(after run: DeclarationRun, configuration: String? = nil) -> [CheckProblem] {
        var problems: [CheckProblem] = []
        if let error = run.error {
            let text: String
            if let error = error as? LuaError { text = error.message } else { text = String(describing: error) }
            let (place, message) = Self.splitPlace(text)
            problems.append(CheckProblem(kind: "declarationError", message: message,
                                         origin: place.map(Origin.init(parsingWhere:))))
        }
        for site in run.unreached {
            problems.append(CheckProblem(kind: "notChecked", message: "\(site.declaration) was not checked", origin: site.origin,
                                         details: [site.reason, site.hint]))
        }
        do {
            if configuration.map({ registry.configuration($0) != nil }) ?? true {
                problems += try check(configuration).map(CheckProblem.init)
            }
        } catch {
            // A deferred plugin that failed to install: nothing of it could be checked.
            problems.append(CheckProblem(kind: "pluginError", message: (error as? LuaError)?.message ?? String(describing: error)))
        }
        return problems
    }
}
