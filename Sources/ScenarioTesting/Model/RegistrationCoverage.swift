import FactoryRegistry

/// Which registrations a run built, by configuration: what `factoryhost test
/// --coverage` reports (the registrations a suite never built are the ones
/// its scenarios never exercised).
///
/// ```swift
/// let coverage = RegistrationCoverage()
/// host.onScriptBuild = { container, key, origin in
///     coverage.record(configuration: container.configuration, key: key, origin: origin)
/// }
/// try host.run(file: "app_spec.lua")
/// let never = coverage.entries(of: host.registry).filter { !$0.built }
/// ```
public final class RegistrationCoverage {
    /// One registration of one configuration, and whether it was built.
    public struct Entry: Hashable, Sendable {
        /// The configuration.
        public var configuration: String
        /// The registration's key (`Store`, `Handler#json`).
        public var key: String
        /// Where it was registered (`file:line`).
        public var origin: String
        /// Whether a container of the configuration built it.
        public var built: Bool

        /// An entry of `key`, registered at `origin` in `configuration`.
        public init(configuration: String, key: String, origin: String, built: Bool) {
            self.configuration = configuration
            self.key = key
            self.origin = origin
            self.built = built
        }

        /// The registration, whether built or not.
        public var id: ID { ID(configuration: configuration, key: key, origin: origin) }

        /// A registration of a configuration, as coverage tells them apart.
        public struct ID: Hashable, Sendable {
            /// The configuration.
            public let configuration: String
            /// The registration's key.
            public let key: String
            /// Where it was registered.
            public let origin: String
        }
    }

    private var built: Set<Entry.ID> = []
    /// What ``takeNewlyBuilt(among:)`` handed out already.
    private var reported: Set<Entry.ID> = []

    /// A record of nothing built yet.
    public init() {}

    /// A registration (`key`, declared at `origin`) was built in a container
    /// of `configuration` (a test's overrides already mapped to the
    /// configuration they extend).
    public func record(configuration: String, key: String, origin: Origin) {
        built.insert(Entry.ID(configuration: configuration, key: key, origin: Self.normalized(origin.description)))
    }

    /// `./specs/./app.lua:3` as `specs/app.lua:3`: one file however a spec
    /// spelled the path it required it by.
    static func normalized(_ origin: String) -> String {
        var parts = origin.split(separator: "/", omittingEmptySubsequences: false)
        // Each "." segment but a leading "/" (an empty first part) goes.
        parts.removeAll { $0 == "." }
        return parts.joined(separator: "/")
    }

    /// Forgets what was built so far (what a spec file's top level built
    /// is not what its tests built).
    public func reset() {
        built = []
        reported = []
    }

    /// Every registration of every configuration `registry` declares (as a
    /// container would see them, inherited ones included; the collections
    /// the container makes and the configurations of a test's overrides
    /// left out), each with whether it was built.
    public func entries(of registry: Registry, excluding excluded: Set<String> = []) -> [Entry] {
        var entries: [Entry] = []
        for name in registry.configurationNames where !excluded.contains(name) {
            guard let registrations = try? registry.registrations(in: name) else { continue }
            for registration in registrations {
                let type = registration.key.type.name
                if type.hasPrefix("[") || type.hasPrefix("{") { continue }
                let id = Entry.ID(configuration: name, key: registration.key.description,
                                  origin: Self.normalized(registration.origin.description))
                entries.append(Entry(configuration: name, key: id.key, origin: id.origin, built: built.contains(id)))
            }
        }
        return entries
    }

    /// What was built since the last call, of the registrations `universe`
    /// holds: a worker reports it after every test, so a worker that dies
    /// later loses none of it.
    public func takeNewlyBuilt(among universe: Set<Entry.ID>) -> [Entry] {
        let new = built.subtracting(reported).filter { universe.contains($0) }
        reported.formUnion(new)
        return new.sorted { ($0.configuration, $0.key, $0.origin) < ($1.configuration, $1.key, $1.origin) }
            .map { Entry(configuration: $0.configuration, key: $0.key, origin: $0.origin, built: true) }
    }
}
