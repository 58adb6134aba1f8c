/// A custom scope a registry knows about, and the scope it nests in
/// (`screen` nests in `session`: closing a session closes its screens).
public struct ScopeDeclaration: Hashable, Sendable, CustomStringConvertible {
    /// The scope's name (`screen`).
    public let name: String
    /// The scope it nests in (`session`), if any.
    public let parent: String?
    /// Where it was declared.
    public let origin: Origin

    /// A scope `name` nesting in `parent`, declared at `origin`.
    public init(name: String, parent: String? = nil, origin: Origin) {
        self.name = name
        self.parent = parent
        self.origin = origin
    }

    /// `screen (in session)`.
    public var description: String { parent.map { "\(name) (in \($0))" } ?? name }
}
