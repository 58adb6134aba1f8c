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
        holder { ($0 as AnyObject) === object }
    }

    /// The first live instance `matches` accepts, with where it is held (for
    /// instances that are not compared by Swift identity: a Lua table's
    /// wrapper is made anew each time, the table's address is what stays).
    ///
    /// ```swift
    /// container.holder { ($0 as? LuaTable)?.identity == table.identity }
    /// ```
    public func holder(where matches: (Any) -> Bool) -> (instance: LiveInstance, scope: ScopeHandle?)? {
        for live in liveSingletons() where matches(live.instance) { return (live, nil) }
        for scope in openScopes {
            for live in scope.liveInstances() where matches(live.instance) { return (live, scope) }
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
