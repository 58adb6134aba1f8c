/// How long an instance lives, and who shares it.
///
/// ```swift
/// try app.register(Logger.self, scope: .singleton) { _ in Logger() }
/// try app.register(UserSession.self, scope: .custom("session")) { _ in UserSession() }
/// ```
public enum Scope: Hashable, Sendable, CustomStringConvertible {
    /// A new instance on every resolve (the default).
    case transient
    /// One instance shared within a single top-level resolve.
    case graph
    /// One instance per container (lazy unless registered `eager`).
    case singleton
    /// Shared while something else still holds it (class instances only).
    case weak
    /// One instance per open scope of this name (`session`, `screen`, …);
    /// resolving with no such scope open is an error.
    case custom(String)

    /// `transient`, `graph`, `singleton`, `weak`, or the custom scope's name.
    public var description: String {
        switch self {
        case .transient: return "transient"
        case .graph: return "graph"
        case .singleton: return "singleton"
        case .weak: return "weak"
        case .custom(let name): return name
        }
    }

    /// Parses `transient`, `graph`, `singleton`, `weak`, or any other word as
    /// a custom scope's name.
    public init(parsing word: String) {
        switch word {
        case "transient": self = .transient
        case "graph": self = .graph
        case "singleton": self = .singleton
        case "weak": self = .weak
        default: self = .custom(word)
        }
    }
}
