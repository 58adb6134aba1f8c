/// A custom scope a registry knows about, and the scope it nests in
/// (`screen` nests in `session`: closing a session closes its screens).
public struct ScopeDeclaration: Hashable, Sendable, CustomStringConvertible {
    public let name: String
    public let parent: String?
    public let origin: Origin

    public init(name: String, parent: String? = nil, origin: Origin) {
        self.name = name
        self.parent = parent
        self.origin = origin
    }

    public var description: String { parent.map { "\(name) (in \($0))" } ?? name }
}
