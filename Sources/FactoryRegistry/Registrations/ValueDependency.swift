/// A configuration value a registration's factory reads (`url = value "baseURL"`
/// in a script's `deps`): not a registration, so not an edge of the graph, but
/// shown with it, so no input of a factory goes unseen.
///
/// ```swift
/// ValueDependency(label: "url", name: "baseURL").description   // "url: value baseURL"
/// ```
public struct ValueDependency: Hashable, Sendable, CustomStringConvertible {
    /// The name the factory reads it by (`url`).
    public let label: String
    /// The configuration value's name (`baseURL`).
    public let name: String

    /// The value `name`, read by the factory as `label`.
    public init(label: String, name: String) {
        self.label = label
        self.name = name
    }

    /// `url: value baseURL`.
    public var description: String { "\(label): value \(name)" }
}
