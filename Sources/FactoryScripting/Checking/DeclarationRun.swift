import FactoryRegistry

/// What running a script for `check` or `graph` came to: where it stopped
/// and why, an error its declarations raised, and the declarations it has
/// but never ran — so a checker can say what it did not see instead of
/// reporting ok for it.
///
/// ```swift
/// let host = try FactoryHost(plugins: [NetworkingPlugin()])
/// host.beginDryRun()
/// let run = host.declare(file: "main.lua")
/// for site in run.unreached { print("\(site.origin): \(site.message)") }
/// let problems = try host.check()
/// ```
public struct DeclarationRun {
    /// Why a dry run stopped before the script's end.
    public struct Stop: Equatable {
        /// What stopped the run.
        public enum Reason: String, Equatable {
            /// The first container (or `resolve`): nothing is built.
            case container
            /// A call that would change something outside the process: a file
            /// written or removed, a process started, a plugin reaching the
            /// network or files, `os.exit`.
            case sideEffect
            /// The time limit.
            case timeLimit
        }
        /// What stopped the run.
        public var reason: Reason
        /// Where, when known.
        public var origin: Origin?
        /// What happened, without the place (`io.open("x", "w") would write a file`).
        public var message: String
    }

    /// A declaration in the script (or a module it requires) that the run
    /// never reached, so nothing checked it.
    public struct Unreached: Equatable {
        /// Where the declaration is.
        public var origin: Origin
        /// `configuration "late"` (or `a scope`, when its name is not a literal).
        public var declaration: String
        /// Why the run never reached it (`check stopped before it, at main.lua:4: …`).
        public var reason: String
        /// What to do about it.
        public var hint: String
    }

    /// Where and why the run stopped (nil: the script ran to its end).
    public internal(set) var stop: Stop?
    /// An error the script raised declaring (a duplicate registration, a
    /// syntax error, a bad option), with its place in the message.
    public internal(set) var error: Error?
    /// Declarations never reached, in source order, file by file.
    public internal(set) var unreached: [Unreached] = []
    /// Declarations that failed and were skipped while the run went on (a dry
    /// run records them instead of stopping), in the order met.
    public internal(set) var declarationErrors: [CheckProblem] = []
    /// The script's source when it came from standard input (`check -`), which
    /// cannot be read again: check looks in it for the line naming a missing dependency.
    var standardInputSource: [UInt8]?

    /// A run that saw everything and stopped nowhere (for checking a host
    /// whose scripts ran in full, as the REPL's `:check` does).
    public init() {}

    /// Whether everything the script declares was run (and so can be checked).
    public var sawEverything: Bool { error == nil && unreached.isEmpty && declarationErrors.isEmpty }
}
