import FactoryhostSupport
/// Everything that can go wrong declaring, validating or resolving.
///
/// The description names the problem, then the configuration, the
/// resolution path and the origins involved — in the manner of Guice:
///
/// ```text
/// no registration for HTTPSession in configuration 'app-tests'
///   resolution path: MainViewModel → MovieLoader → HTTPSession
///   required by: MovieLoader (app.lua:14)
/// ```
public struct RegistryError: Error, CustomStringConvertible, Equatable {
    /// What kind of problem it is: match on it, never on the message.
    public enum Kind: String, Sendable, Equatable {
        /// Nothing is registered for a key that was resolved or declared as a dependency.
        case missingRegistration
        /// A key was registered twice in one configuration, or again without `overrides`.
        case duplicateRegistration
        /// An override replaces nothing: no configuration it extends registers the key.
        case nothingToOverride
        /// No configuration has that name.
        case unknownConfiguration
        /// Configurations extend one another in a circle.
        case configurationCycle
        /// A configuration of that name exists already.
        case duplicateConfiguration
        /// A registration depends on itself, through the path the error shows.
        case cycle
        /// A longer-lived instance would hold a shorter-lived one (a singleton holding a `session` object).
        case captiveDependency
        /// A custom scope that was never declared.
        case unknownScope
        /// A registration of a custom scope was resolved with no such scope open.
        case scopeNotOpen
        /// A closed scope was used.
        case scopeClosed
        /// A resolve from a container needed a scope of a name several of
        /// which are open, and did not say which: resolve through the scope's
        /// handle, or inside ``ScopeHandle/withCurrent(_:)``.
        case scopeAmbiguous
        /// A closed container was used, or one that is gone (a provider kept
        /// past its container, a scope of a released container).
        case containerClosed
        /// Runtime arguments of the wrong number or types.
        case argumentMismatch
        /// A factory built a value that is not of its registered type.
        case wrongType
        /// A factory resolved something it did not declare as a dependency.
        case undeclaredDependency
        /// A registration that cannot be made as given (a refinement the registration it overrides does not allow, …).
        case invalidRegistration
        /// A factory threw; the error carries its message (and ``causeID``).
        case factoryFailed
        /// The graph is too deep for the stack of the thread resolving it.
        case tooDeep
        /// A factory used its resolver after it returned, or on another thread.
        case resolverExpired
        /// Disposing of an instance at a close failed.
        case disposalFailed
    }

    /// What kind of problem.
    public let kind: Kind
    /// What went wrong, in one line.
    public let message: String
    /// The configuration involved, if any.
    public var configuration: String?
    /// The keys being resolved, outermost first, when the error arose resolving.
    public var path: [String]
    /// Further lines: origins, hints.
    public var details: [String]
    /// The origin most responsible (the registration that declares the bad thing).
    public var origin: Origin?
    /// Identifies what a failed factory raised, when it was more than text:
    /// the host that made the factory keeps the value under this number (a
    /// script host: the Lua error object, which scripts see as `err.cause`).
    /// The registry only carries it along.
    public var causeID: Int?
    /// The key a registration depends on that nothing registers (a
    /// `.missingRegistration` that validation found), for a tool that points
    /// at the line naming it.
    public var missingKey: String?

    /// The longest message an error keeps: a message that wraps another
    /// (a factory's error inside a factory's error…) is cut there, so no
    /// chain of failures makes an unbounded report.
    public static let messageLimit = 4096

    /// An error of `kind` saying `message` (cut at ``messageLimit``).
    public init(_ kind: Kind, _ message: String, configuration: String? = nil, path: [String] = [],
                details: [String] = [], origin: Origin? = nil, causeID: Int? = nil) {
        self.causeID = causeID
        self.kind = kind
        self.message = RegistryError.bounded(message)
        self.configuration = configuration
        self.path = path
        self.details = details
        self.origin = origin
    }

    /// `text`, at most about ``messageLimit`` bytes: its first three
    /// quarters and its last quarter (cut on character boundaries), with how
    /// much was left out between. The end is kept because a chain of wrapped
    /// failures ends with its cause (`the factory for A failed: … the factory
    /// for Z failed: C stack overflow`).
    public static func bounded(_ text: String) -> String { MessageText.bounded(text, limit: messageLimit) }

    /// The lines under the message: the resolution path (when it says more
    /// than the message), then ``details``.
    public var detailLines: [String] {
        var lines: [String] = []
        if path.count > 1 || (path.count == 1 && kind != .missingRegistration) {
            let shown = path.count <= 12 ? path : path.prefix(5) + ["… \(path.count - 10) more …"] + path.suffix(5)
            lines.append("resolution path: " + shown.joined(separator: " → "))
        }
        return lines + details
    }

    /// The message, the configuration, then the resolution path and the details, a line each.
    public var description: String {
        ([message + (configuration.map { " in configuration '\($0)'" } ?? "")] + detailLines.map { "  " + $0 })
            .joined(separator: "\n")
    }
}
