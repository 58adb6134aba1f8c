import FactoryRegistry

/// Which registrations a run built, one entry per declaration (the
/// configuration that declared it, its key, where): what `factoryhost test
/// --coverage` reports (the registrations a suite never built are the ones
/// its scenarios never exercised). A declaration inherited by configurations
/// extending its own is one entry, built if a container of any of them built
/// it — the report grows with the script, not with configurations × registrations.
///
/// ```swift
/// let coverage = RegistrationCoverage()
/// host.onScriptBuild = { _, registration in coverage.record(registration) }
/// try host.run(file: "app_spec.lua")
/// let never = coverage.entries(of: host.registry).filter { !$0.built }
/// ```
public final class RegistrationCoverage {
    /// One declaration, and whether it was built.
    public struct Entry: Hashable, Sendable {
        /// The configuration that declared it.
        public var configuration: String
        /// The registration's key (`Store`, `Handler#json`).
        public var key: String
        /// Where it was registered (`file:line`).
        public var origin: String
        /// Whether a container (of its configuration or of one extending it) built it.
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

    /// `registration` was built (in a container of its configuration or of
    /// one extending it).
    public func record(_ registration: Registration) {
        built.insert(Self.id(of: registration))
    }

    /// A declaration as coverage tells them apart.
    static func id(of registration: Registration) -> Entry.ID {
        Entry.ID(configuration: registration.configuration, key: registration.key.description,
                 origin: normalized(registration.origin.description))
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

    /// Every registration `registry`'s configurations declare, each once,
    /// under the configuration that declared it (the configurations of a
    /// test's overrides, `excluded`, left out), with whether it was built.
    public func entries(of registry: Registry, excluding excluded: Set<String> = []) -> [Entry] {
        var entries: [Entry] = []
        for name in registry.configurationNames where !excluded.contains(name) {
            guard let configuration = registry.configuration(name) else { continue }
            for registration in configuration.registrations {
                let type = registration.key.type.name
                if type.hasPrefix("[") || type.hasPrefix("{") { continue }
                // A change of parameters builds with the registration it changes, which is the entry.
                if registration.refinement != nil { continue }
                let id = Self.id(of: registration)
                entries.append(Entry(configuration: id.configuration, key: id.key, origin: id.origin, built: built.contains(id)))
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
