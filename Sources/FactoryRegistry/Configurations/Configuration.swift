/// A named set of registrations — `app`, `app-tests`, `billing-tests`. One
/// may extend another and override some of its registrations.
///
/// ```swift
/// let registry = Registry()
/// let app = try registry.defineConfiguration("app")
/// try app.register(Store.self, scope: .singleton) { _ in SQLiteStore(path: "app.sqlite") }
/// let tests = try registry.defineConfiguration("app-tests", extends: "app")
/// try tests.register(Store.self, scope: .singleton, overrides: true) { _ in InMemoryStore() }
/// ```
// @unchecked Sendable: `ordered` and `positions` are read and written under the registry's lock (unlocked only
// once the registry is gone, when nothing can write them); `registry` is weak and set only in init.
public final class Configuration: @unchecked Sendable {
    /// The configuration's name.
    public let name: String
    /// The configuration it extends, if any.
    public let parent: String?
    /// Where it was defined.
    public let origin: Origin
    /// Weak: a configuration must not keep its registry alive, and must not
    /// crash if it is used after the registry is gone.
    weak var registry: Registry?
    /// Registrations in the order they were made.
    var ordered: [Registration] = []
    /// Where each key is in `ordered`.
    var positions = RegistrationIndex()

    init(name: String, parent: String?, origin: Origin, registry: Registry) {
        self.name = name
        self.parent = parent
        self.origin = origin
        self.registry = registry
    }

    /// The registrations made in this configuration itself (not inherited).
    public var registrations: [Registration] { registry?.lock.withLock { ordered } ?? ordered }

    /// The registration of `key` made in this configuration itself, if any.
    public func registration(for key: ServiceKey) -> Registration? {
        let find = { self.positions.position(of: key, in: self.ordered).map { self.ordered[$0] } }
        return registry?.lock.withLock(find) ?? find()
    }

    /// Adds a registration. Registering a key twice is an error naming both
    /// origins, unless the second one `overrides`. A registration with runtime
    /// arguments must be transient.
    ///
    /// - Throws: `RegistryError`: `.duplicateRegistration` for a key registered here already (without `overrides`), `.invalidRegistration` for runtime arguments on a non-transient, a refinement that does not fit, or a registry that is gone.
    public func add(_ registration: consuming Registration) throws {
        // (Consumed: a registration handed over as its last use is stamped
        // with the configuration in place, not copied.)
        var added = consume registration
        if added.configuration != name { added.configuration = name }
        if !added.arguments.isEmpty && added.scope != .transient {
            throw RegistryError(
                .invalidRegistration,
                "\(added.key) takes runtime arguments, so it must be transient (it is \(added.scope))",
                configuration: name, details: ["registered at \(added.origin)"], origin: added.origin)
        }
        guard let registry else {
            throw RegistryError(.invalidRegistration, "cannot register \(added.key): the registry of configuration '\(name)' is gone",
                                origin: added.origin)
        }
        try registry.lock.withLock {
            if let existing = positions.position(of: added.key, in: ordered) {
                let first = ordered[existing]
                if added.refinement != nil {
                    // It changes parameters of one of its own configuration's
                    // (whatever that is: a contribution stays one), once.
                    guard first.refinement == nil, !first.parameters.contains(where: { $0.changedAt != nil }) else {
                        throw RegistryError(
                            .duplicateRegistration, "\(added.key)'s parameters are changed twice",
                            configuration: name, details: ["first at \(first.parameters.lazy.compactMap(\.changedAt).first ?? first.origin)",
                                                           "again at \(added.origin) (change them in one place)"],
                            origin: added.origin)
                    }
                    ordered[existing] = try first.refined(by: added, configuration: name)
                    registry.invalidatePlans()
                    return
                }
                guard added.overrides, first.contribution == added.contribution else {
                    // Contributions share a name only by mistake (a set's and a map's, say):
                    // an override would replace one collection's member with another's.
                    let hint = first.contribution != nil || added.contribution != nil
                        ? "give one of them another name (a contribution is a registration of its own, named by its name or map key)"
                        : "say it overrides to replace the first"
                    throw RegistryError(
                        .duplicateRegistration, "\(added.key) is registered twice",
                        configuration: name,
                        details: ["first at \(first.origin)", "again at \(added.origin) (\(hint))"],
                        origin: added.origin)
                }
                // It replaces a registration of its own configuration; whether it
                // also overrides an inherited one is what the first one said.
                added.overrides = ordered[existing].overrides
                ordered[existing] = added
            } else {
                positions.insert(added.key, at: ordered.count, in: ordered)
                ordered.append(added)
            }
            registry.invalidatePlans()
        }
    }
}
