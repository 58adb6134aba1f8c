/// One instance a container or an open scope holds now, with the
/// registration that built it (for the REPL's `:live` and `:inspect`).
public struct LiveInstance {
    /// The registration that built it.
    public let registration: Registration
    /// The instance.
    public let instance: Any
}

extension Container {
    /// The singletons (and weak instances still alive) this container holds
    /// now, in registration order. Nothing is built.
    ///
    /// ```swift
    /// for live in container.liveSingletons() { print(live.registration.key) }
    /// ```
    public func liveSingletons() -> [LiveInstance] {
        plan.registrations.compactMap { planned in
            guard planned.slot >= 0, planned.slot < slots.count, let value = slots[planned.slot].value else { return nil }
            return LiveInstance(registration: planned.registration, instance: value)
        }
    }

    /// The scopes open now, oldest first (nested ones included, each after its parent).
    public var openScopes: [ScopeHandle] { scopesOpenNow() }

    /// The live instance `object` is (compared by identity), with where it is
    /// held: nil for the container itself, else the open scope holding it.
    public func holder(of object: AnyObject) -> (instance: LiveInstance, scope: ScopeHandle?)? {
        for live in liveSingletons() where (live.instance as AnyObject) === object { return (live, nil) }
        for scope in openScopes {
            for live in scope.liveInstances() where (live.instance as AnyObject) === object { return (live, scope) }
        }
        return nil
    }
}

extension ScopeHandle {
    /// The instances this scope holds now, in the order they were built.
    public func liveInstances() -> [LiveInstance] {
        guard let container else { return [] }
        return instancesInOrder().compactMap { index, value in
            guard index < container.plan.registrations.count else { return nil }
            return LiveInstance(registration: container.plan.registrations[index].registration, instance: value)
        }
    }
}
