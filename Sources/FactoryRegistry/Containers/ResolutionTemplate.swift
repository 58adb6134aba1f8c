
/// The parts of a plan every resolve reads, as values that need no
/// reference counting (the container keeps the plan alive).
@usableFromInline
struct ResolutionTemplate {
    /// `unowned(unsafe)`: the template is a stored property of the container whose `plan` holds this plan
    /// strongly, so the plan outlives every read through it (no reference counting on the shared plan per resolve).
    unowned(unsafe) let plan: ContainerPlan
    let hotRegistrations: UnsafeMutableBufferPointer<HotRegistration>
    let hotDependencies: UnsafeMutableBufferPointer<Int32>
    let hotDependencyTypes: UnsafeMutableBufferPointer<UInt>
    @usableFromInline let keys: KeyTable.Lookup

    init(plan: ContainerPlan) {
        self.plan = plan
        hotRegistrations = plan.hot.registrations
        hotDependencies = plan.hot.dependencies
        hotDependencyTypes = plan.hot.dependencyTypes
        keys = plan.hot.keys.lookup
    }
}

/// What a resolve starts from: a container, and the scope handle it was
/// called on (if any). Lets ``Container``, ``ScopeHandle`` share ``Resolving``.
public struct ResolutionEntry: Sendable {
    @usableFromInline let container: Container?
    @usableFromInline let scope: ScopeHandle?

    init(container: Container?, scope: ScopeHandle?) {
        self.container = container
        self.scope = scope
    }

    /// The container, or an error if it is gone (a handle can outlive it)
    /// or the scope resolved through is closed: a closed scope builds
    /// nothing through it, not even what lives elsewhere (a transient, a
    /// singleton), and gives no provider — as a closed container does.
    @inlinable
    func liveContainer() throws -> Container {
        if let scope, scope.isClosed { throw scope.closedError() }
        if let container { return container }
        throw containerGone()
    }

    @usableFromInline
    func containerGone() -> RegistryError {
        RegistryError(.containerClosed, "the '\(scope?.name ?? "?")' scope's container is gone")
    }
}
