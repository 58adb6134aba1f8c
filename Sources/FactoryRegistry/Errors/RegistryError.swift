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
    public enum Kind: String, Sendable, Equatable {
        case missingRegistration
        case duplicateRegistration
        case nothingToOverride
        case unknownConfiguration
        case configurationCycle
        case duplicateConfiguration
        case cycle
        case captiveDependency
        case unknownScope
        case scopeNotOpen
        case scopeClosed
        case argumentMismatch
        case wrongType
        case undeclaredDependency
        case invalidRegistration
        case factoryFailed
        case tooDeep
        case resolverExpired
        case disposalFailed
    }

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

    /// The longest message an error keeps: a message that wraps another
    /// (a factory's error inside a factory's error…) is cut there, so no
    /// chain of failures makes an unbounded report.
    public static let messageLimit = 4096

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

    /// `text`, cut at ``messageLimit`` bytes (on a character boundary) with
    /// a note of how much was left out.
    public static func bounded(_ text: String) -> String {
        guard text.utf8.count > messageLimit else { return text }
        var cut = text.utf8.index(text.utf8.startIndex, offsetBy: messageLimit)
        while cut > text.startIndex && !text.indices.contains(cut) { cut = text.utf8.index(before: cut) }
        return String(text[..<cut]) + "… (\(text.utf8.count - text.utf8.distance(from: text.utf8.startIndex, to: cut)) more bytes)"
    }

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

    public var description: String {
        ([message + (configuration.map { " in configuration '\($0)'" } ?? "")] + detailLines.map { "  " + $0 })
            .joined(separator: "\n")
    }
}
