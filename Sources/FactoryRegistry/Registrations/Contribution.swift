import FactoryhostSupport
/// How a registration adds to a collection of its type instead of being the
/// one registration of its key — Guice's Multibinder and MapBinder. With
/// `.set` it joins the list of its type; with `.map(key:)` the map, under
/// `key`. A dependent asks for the collection by ``ServiceType/list(of:)``
/// or ``ServiceType/map(of:)`` and gets every contribution its configuration
/// has — inherited ones first, overrides in place — in declaration order.
/// Each contribution is a registration of its own (named, so a configuration
/// that extends another can override it); check and graph see the
/// collection's edges to each.
///
/// ```swift
/// try app.register(Handler.self, name: "json", into: .set) { _ in JSONHandler() }
/// try app.register(Handler.self, name: "xml", into: .set) { _ in XMLHandler() }
/// let handlers = try container.resolveList(Handler.self)      // [JSONHandler, XMLHandler]
/// ```
public enum Contribution: Sendable, Equatable, CustomStringConvertible {
    /// Joins the list of its type (``ServiceType/list(of:)``).
    case set
    /// Joins the map of its type (``ServiceType/map(of:)``) under `key`.
    case map(key: String)

    /// The key of the collection a registration of `type` contributes to.
    public func collectionKey(for type: ServiceType) -> ServiceKey {
        switch self {
        case .set: return ServiceKey(.list(of: type))
        case .map: return ServiceKey(.map(of: type))
        }
    }

    /// `set`, or `map[key]`.
    public var description: String {
        switch self {
        case .set: return "set"
        case .map(let key): return "map[\(key)]"
        }
    }
}

/// A map a container builds from `.map` contributions: keys and values in
/// declaration order.
public struct ContributedMap {
    /// The keys, in declaration order.
    public let keys: [String]
    /// The values, in the keys' order.
    public let values: [Any]

    /// The value under `key`, if any.
    public subscript(key: String) -> Any? { keys.firstIndex(of: key).map { values[$0] } }
}

extension ServiceType {
    /// The list of `element`'s `.set` contributions (`[Handler]`): a
    /// container builds it as an `[Any]`.
    public static func list(of element: ServiceType) -> ServiceType {
        ServiceType([Any].self, name: "[\(element.name)]", identity: CollectionIdentities.shared.identity(element.id, map: false))
    }

    /// The map of `element`'s `.map` contributions (`{Handler}`): a container
    /// builds it as a ``ContributedMap``.
    public static func map(of element: ServiceType) -> ServiceType {
        ServiceType(ContributedMap.self, name: "{\(element.name)}", identity: CollectionIdentities.shared.identity(element.id, map: true))
    }
}

/// One identity object per element type and kind of collection, for the
/// collections' service types (kept for the process's life).
// Sendable, checked (a process-wide `shared`): its tables live behind a lock (`Protected`).
final class CollectionIdentities: Sendable {
    static let shared = CollectionIdentities()
    private struct Key: Hashable { let element: ObjectIdentifier; let map: Bool }
    private final class Identity: Sendable {}
    private struct Tables {
        var identities: [Key: Identity] = [:]
        /// Which identities are maps, by identity.
        var kinds: [ObjectIdentifier: Bool] = [:]
    }
    private let tables = Protected(Tables())

    func identity(_ element: ObjectIdentifier, map: Bool) -> AnyObject {
        tables.withLock { tables in
            let key = Key(element: element, map: map)
            if let identity = tables.identities[key] { return identity }
            let identity = Identity()
            tables.identities[key] = identity
            tables.kinds[ObjectIdentifier(identity)] = map
            return identity
        }
    }

    /// Whether the type `id` is a collection's: nil if not, else whether a map.
    func collectionKind(_ id: ObjectIdentifier) -> Bool? {
        tables.withLock { $0.kinds.isEmpty ? nil : $0.kinds[id] }
    }
}

extension Registration {
    /// The registration a plan adds for a collection: transient, depending on
    /// each contribution in order; its factory resolves them all.
    static func collector(_ key: ServiceKey, contributions: [Registration], isMap: Bool,
                          origin: Origin? = nil) -> Registration {
        collector(key, dependencies: contributions.map(Dependency.init(contributedBy:)), isMap: isMap,
                  origin: contributions.first?.origin ?? origin)
    }

    /// The registration a plan adds for a collection, given its dependencies
    /// on its contributions (a map's labelled with their keys), made at `origin`.
    static func collector(_ key: ServiceKey, dependencies: [Dependency], isMap: Bool, origin: Origin?) -> Registration {
        let factory = UntypedFactory { resolver, _ in
            let values = try dependencies.map { try resolver.resolveAny($0.key) }
            return isMap ? ContributedMap(keys: dependencies.map { $0.label ?? "" }, values: values) as Any : values as Any
        }
        return Registration(key: key, dependencies: dependencies, origin: origin ?? Origin(file: "?", line: 0), factory: factory)
    }
}

extension Dependency {
    /// A collector's dependency on `contribution` (a map's labelled with its key).
    init(contributedBy contribution: Registration) {
        if case .map(let mapKey)? = contribution.contribution {
            self.init(contribution.key, label: mapKey)
        } else {
            self.init(contribution.key)
        }
    }
}
