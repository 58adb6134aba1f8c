extension Registry {
    /// Every declaration a registry holds at one moment — configurations,
    /// their registrations, custom scopes — to go back to with
    /// ``Registry/restore(_:)``. The test runner takes one after a spec file
    /// loads, and restores it after each test, so a configuration or scope a
    /// test declares never reaches the next.
    ///
    /// ```swift
    /// let declared = registry.snapshot()
    /// try registry.defineConfiguration("scratch")      // a test's own
    /// registry.restore(declared)                        // gone again
    /// ```
    public struct Snapshot: Sendable {
        fileprivate let configurations: [String: Configuration]
        fileprivate let order: [String]
        fileprivate let scopes: [String: ScopeDeclaration]
        fileprivate let contents: [ObjectIdentifier: ([Registration], RegistrationIndex)]
        fileprivate let generation: Int
        fileprivate let owner: ObjectIdentifier
    }

    /// The declarations as they are now.
    public func snapshot() -> Snapshot {
        lock.withLock {
            Snapshot(configurations: configurationsByName, order: configurationOrder, scopes: scopeDeclarations,
                     contents: Dictionary(uniqueKeysWithValues: configurationsByName.values.map {
                         (ObjectIdentifier($0), ($0.ordered, $0.positions))
                     }), generation: generation, owner: ObjectIdentifier(self))
        }
    }

    /// Puts the declarations back as `snapshot` found them: configurations and
    /// scopes declared since are gone, registrations added since to older
    /// configurations too. Containers made meanwhile keep what they saw.
    /// Throws if `snapshot` was taken of another registry.
    ///
    /// - Throws: `RegistryError` (`.invalidRegistration`) for a snapshot of another registry.
    public func restore(_ snapshot: Snapshot) throws {
        guard snapshot.owner == ObjectIdentifier(self) else {
            throw RegistryError(.invalidRegistration, "cannot restore a snapshot taken of another registry")
        }
        lock.withLock {
            guard generation != snapshot.generation else { return }      // nothing declared since: plans stay cached
            configurationsByName = snapshot.configurations
            configurationOrder = snapshot.order
            scopeDeclarations = snapshot.scopes
            for configuration in snapshot.configurations.values {
                if let (ordered, positions) = snapshot.contents[ObjectIdentifier(configuration)] {
                    configuration.ordered = ordered
                    configuration.positions = positions
                }
            }
            invalidatePlans()
            generation = snapshot.generation
        }
    }
}
