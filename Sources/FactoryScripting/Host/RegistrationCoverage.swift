import FactoryRegistry

/// Which registrations a run built, by configuration: what `factoryhost test
/// --coverage` reports (the registrations a suite never built are the ones
/// its scenarios never exercised).
///
/// ```swift
/// host.coverage = RegistrationCoverage()
/// try host.run(file: "app_spec.lua")
/// let never = host.coverage?.entries(of: host.registry).filter { !$0.built }
/// ```
public final class RegistrationCoverage {
    /// One registration of one configuration, and whether it was built.
    public struct Entry: Hashable, Sendable {
        public var configuration: String
        public var key: String
        public var origin: String
        public var built: Bool

        public init(configuration: String, key: String, origin: String, built: Bool) {
            self.configuration = configuration
            self.key = key
            self.origin = origin
            self.built = built
        }
    }

    private struct Built: Hashable {
        let configuration: String
        let key: String
        let origin: String
    }
    private var built: Set<Built> = []

    public init() {}

    /// A registration (`key`, declared at `origin`) was built in a container
    /// of `configuration` — a test's overrides count for the configuration
    /// they extend.
    func record(configuration: String, key: String, origin: Origin) {
        let name = configuration.hasSuffix(FactoryHost.testOverridesSuffix)
            ? String(configuration.dropLast(FactoryHost.testOverridesSuffix.count)) : configuration
        built.insert(Built(configuration: name, key: key, origin: origin.description))
    }

    /// Every registration of every configuration `registry` declares (as a
    /// container would see them, inherited ones included; the collections
    /// the container makes and a test's own overrides left out), each with
    /// whether it was built.
    public func entries(of registry: Registry) -> [Entry] {
        var entries: [Entry] = []
        for name in registry.configurationNames where !name.hasSuffix(FactoryHost.testOverridesSuffix) {
            guard let registrations = try? registry.registrations(in: name) else { continue }
            for registration in registrations {
                let type = registration.key.type.name
                if type.hasPrefix("[") || type.hasPrefix("{") { continue }
                let key = registration.key.description, origin = registration.origin.description
                entries.append(Entry(configuration: name, key: key, origin: origin,
                                     built: built.contains(Built(configuration: name, key: key, origin: origin))))
            }
        }
        return entries
    }
}
