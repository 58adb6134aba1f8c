import CActiveResolve

// The resolve path, in four layers over one plan (the map; the DocC article
// "How a Resolve Runs", FactoryRegistry.docc/HowAResolveRuns.md, tells why
// each unsafe step is safe):
//   Container.resolve / Resolver.resolve    — the typed entry points (Resolving.swift, Resolver.swift)
//   ResolutionContext.run / enterFastPath   — one top-level resolve: its ResolutionState on the stack,
//                                              the active-resolve token (CActiveResolve), the depth guard
//   ResolutionContext.resolveInline         — the fast path: HotTable's raw HotRegistration records
//                                              (HotTable.swift), InstanceSlot reads, InlinePath for cycles
//   ResolutionContext's slow path           — scopes, arguments, providers, captive checks, errors with
//                                              the path (PlannedRegistration in ContainerPlan.swift)
// The plan has three representations: Registration (as declared), PlannedRegistration
// (dependencies as indices, slots), HotRegistration (what the fast path reads, without ARC).

/// The state of one top-level resolve: the path being built (for cycles,
/// captive checks and messages), the graph-scoped instances, and the scope
/// handle it started from. It lives on the stack of the top-level resolve
/// (see ``ResolutionContext/run(container:scope:_:)``): no allocation and
/// no reference counting per resolve.
@usableFromInline
struct ResolutionState {
    /// `unowned(unsafe)`: a state lives only in `ResolutionContext.run`'s frame, and every caller of `run` holds
    /// the container strongly for that call (`self`, `liveContainer()`, `Provider.call`'s `guard let`); the
    /// container holds the plan.
    @usableFromInline unowned(unsafe) let container: Container
    unowned(unsafe) let plan: ContainerPlan
    /// The plan's hot data, as raw views (the plan keeps them alive).
    @usableFromInline let hotRegistrations: UnsafeMutableBufferPointer<HotRegistration>
    @usableFromInline let hotDependencies: UnsafeMutableBufferPointer<Int32>
    @usableFromInline let hotDependencyTypes: UnsafeMutableBufferPointer<UInt>
    let keys: KeyTable.Lookup
    let scope: ScopeHandle?
    /// The registrations being built, outermost first: the first 16 inline,
    /// deeper ones in `overflow`.
    @usableFromInline var inlinePath = InlinePath()
    @usableFromInline var overflow: [Int32] = []
    @usableFromInline var pathCount = 0
    var graphInstances: [Int: Any]?
    /// Below this stack address a nested resolve fails with `.tooDeep`
    /// instead of overflowing the thread's stack (see ``StackGuard``).
    @usableFromInline let stackFloor: UInt
    /// The top-level resolve of the same container this one runs inside
    /// (a factory that resolves through a captured container or a provider),
    /// if any: its path continues this one's for cycle checks.
    @usableFromInline var outer: UnsafeMutablePointer<ResolutionState>?
    /// Started by a provider's call: what it resolves was declared (as a
    /// provider), whoever calls it.
    @usableFromInline var fromProvider = false
    /// A resolve inside the factory running now asked for what the factory
    /// does not declare: the factory fails with this, whatever it caught.
    var undeclared: RegistryError?
    /// Whether `undeclared` holds one, or `closedInside` is set (a flag,
    /// cheap to test after every factory).
    @usableFromInline var undeclaredPending = false
    /// A factory of this resolve closed the container (``Container`` sets
    /// it on the resolves active on its thread): what was built is not
    /// handed out, nor what depends on it built. Once set, it stays.
    var closedInside = false

    @usableFromInline
    init(container: Container, scope: ScopeHandle?) {
        // Everything from the container's precomputed template: no reference
        // counting on the shared plan, which would bounce between cores.
        let template = container.template
        self.container = container
        self.plan = template.plan
        self.hotRegistrations = template.hotRegistrations
        self.hotDependencies = template.hotDependencies
        self.hotDependencyTypes = template.hotDependencyTypes
        self.keys = template.keys
        self.scope = scope
        self.stackFloor = StackGuard.floor()
    }
}

/// A top-level resolve in progress: a pointer to its ``ResolutionState``,
/// valid until the top-level resolve returns. Each access through it is
/// momentary, so nested resolves (from inside factories) never overlap an
/// access in progress.
@usableFromInline
struct ResolutionContext {
    @usableFromInline let state: UnsafeMutablePointer<ResolutionState>
    /// This resolve's token on its thread (see ``isActive``).
    @usableFromInline let token: UInt64

    @usableFromInline
    init(state: UnsafeMutablePointer<ResolutionState>, token: UInt64) {
        self.state = state
        self.token = token
    }

    /// Runs `body` with a fresh resolution state on this stack frame, made
    /// the active resolve of this thread while it runs. A resolve nested in
    /// a factory (a provider's call, say) starts here too, so the stack is
    /// checked on every entry: recursion through providers fails cleanly.
    @inlinable
    static func run<R>(container: Container, scope: ScopeHandle?, fromProvider: Bool = false,
                       _ body: (ResolutionContext) throws -> R) throws -> R {
        var state = ResolutionState(container: container, scope: scope)
        state.fromProvider = fromProvider
        if currentStackAddress() < state.stackFloor { throw tooDeepOnEntry(container) }
        return try withUnsafeMutablePointer(to: &state) { pointer in
            var token: UInt64 = 0
            let previous = fh_begin_resolve(UnsafeRawPointer(pointer), &token)
            defer { fh_end_resolve(previous) }
            if let enclosing = previous.state { linkOuter(pointer, enclosing) }   // a resolve from inside a factory: rare
            return try body(ResolutionContext(state: pointer, token: token))
        }
    }

    /// Runs `body` as if no resolve were under way on this thread (see
    /// ``Container/outsideAnyResolve(_:)``).
    static func detached<R>(_ body: () throws -> R) rethrows -> R {
        var token: UInt64 = 0
        let previous = fh_begin_resolve(nil, &token)
        defer { fh_end_resolve(previous) }
        return try body()
    }

    /// Links a top-level resolve started inside a factory to the resolve of
    /// the same container that runs that factory (see ``checkReentry(_:)``).
    @usableFromInline
    static func linkOuter(_ pointer: UnsafeMutablePointer<ResolutionState>, _ enclosing: UnsafeRawPointer) {
        let outer = UnsafeMutablePointer(mutating: enclosing.assumingMemoryBound(to: ResolutionState.self))
        if outer.pointee.container === pointer.pointee.container { pointer.pointee.outer = outer }
    }

    /// A transient or graph-scoped instance whose factory (or one it
    /// called) closed the container: not handed out. (Closed by another
    /// thread meanwhile, it is: the resolve came first.)
    @usableFromInline @inline(never)
    func closedWhileBuilt(_ index: Int) -> RegistryError {
        if let scope = state.pointee.scope, !container.isClosed {
            return RegistryError(.scopeClosed, "cannot hand out \(plan.registrations[index].name): scope '\(scope.name)' "
                                 + "was closed while it was built", configuration: nil)
        }
        return RegistryError(.containerClosed, "cannot hand out \(plan.registrations[index].name): container '\(container.configuration)' "
                             + "was closed while it was built", configuration: nil)
    }

    /// A resolve from a closed container (read before every build, also
    /// within a resolve whose factory closed it; a built singleton's return
    /// pays nothing): it builds nothing more, not even a transient (which may
    /// need what closing released).
    @usableFromInline @inline(never)
    func closedError(_ index: Int) -> RegistryError {
        RegistryError(.containerClosed, "cannot build \(plan.registrations[index].name): container '\(container.configuration)' is closed",
                            configuration: nil)
    }

    @usableFromInline
    static func tooDeepOnEntry(_ container: Container) -> RegistryError {
        RegistryError(.tooDeep, "the graph is too deep to build: nested resolves exhausted the thread's stack",
                      configuration: container.configuration,
                      details: ["a provider or container called from a factory may be recursing without end"])
    }

    /// Whether this resolve is still the one running on this thread. False
    /// for a resolver kept past its factory call, or used on another thread:
    /// its state is gone, and must not be touched.
    @inlinable
    var isActive: Bool { fh_resolve_is_active(UnsafeRawPointer(state), token) != 0 }

    var container: Container { state.pointee.container }
    var plan: ContainerPlan { state.pointee.plan }
    var scope: ScopeHandle? { state.pointee.scope }
    var hotRegistrations: UnsafeMutableBufferPointer<HotRegistration> { state.pointee.hotRegistrations }
    var hotDependencies: UnsafeMutableBufferPointer<Int32> { state.pointee.hotDependencies }
    var keys: KeyTable.Lookup { state.pointee.keys }
    var stackFloor: UInt { state.pointee.stackFloor }
    var pathCount: Int {
        get { state.pointee.pathCount }
        nonmutating set { state.pointee.pathCount = newValue }
    }

    /// The registrations on the path, outermost first.
    var path: [Int] {
        let count = pathCount
        let inline = withUnsafeBytes(of: state.pointee.inlinePath) {
            Array($0.bindMemory(to: Int32.self).prefix(min(count, InlinePath.capacity)))
        }
        return (inline + state.pointee.overflow.prefix(max(0, count - InlinePath.capacity))).map { Int($0) }
    }

    @inlinable @inline(__always)
    func pathContains(_ index: Int32) -> Bool {
        let count = state.pointee.pathCount
        let inlineCount = min(count, InlinePath.capacity)
        let found = withUnsafeBytes(of: &state.pointee.inlinePath) { raw -> Bool in
            let items = raw.bindMemory(to: Int32.self)
            var i = 0
            while i < inlineCount {
                if items[i] == index { return true }
                i += 1
            }
            return false
        }
        return found || (count > InlinePath.capacity
                         && state.pointee.overflow.prefix(count - InlinePath.capacity).contains(index))
    }

    @inlinable @inline(__always)
    func pushPath(_ index: Int32) {
        let count = state.pointee.pathCount
        if count < InlinePath.capacity {
            let position = count
            withUnsafeMutableBytes(of: &state.pointee.inlinePath) { $0.storeBytes(of: index, toByteOffset: position * 4, as: Int32.self) }
        } else {
            let position = count - InlinePath.capacity
            if position < state.pointee.overflow.count {
                state.pointee.overflow[position] = index
            } else {
                state.pointee.overflow.append(index)
            }
        }
        state.pointee.pathCount = count + 1
    }

    /// The path's names, outermost first, followed by `extra`.
    func pathNames(adding extra: String? = nil) -> [String] {
        path.map { plan.registrations[$0].name } + (extra.map { [$0] } ?? [])
    }

    func error(_ kind: RegistryError.Kind, _ message: String, adding extra: String? = nil,
               details: [String] = [], origin: Origin? = nil) -> RegistryError {
        RegistryError(kind, message, configuration: plan.configuration, path: pathNames(adding: extra),
                      details: details, origin: origin)
    }

    // MARK: Resolving

    // MARK: The inlinable fast path (see Resolver.resolve)

    /// The registration `holder` declares as an unnamed instance dependency
    /// of type `typeID`, found by scanning its own few declarations; nil
    /// sends the caller down the hashed path (names, errors).
    @inlinable @inline(__always)
    func declaredInstance(of holder: Int, typeID: ObjectIdentifier) -> Int? {
        let h = state.pointee.hotRegistrations[holder]
        let types = state.pointee.hotDependencyTypes
        let raw = UInt(bitPattern: typeID)
        var i = Int(h.instanceStart)
        let end = i + Int(h.instanceCount)
        while i < end {
            if types[i] == raw {
                let target = state.pointee.hotDependencies[i]
                return target >= 0 ? Int(target) : nil
            }
            i += 1
        }
        return nil
    }

    /// For a transient registration with a typed factory of `typeID` and no
    /// runtime arguments: runs every check, enters the path and returns the
    /// factory; the caller calls it, then `leaveFastPath()`. Nil otherwise
    /// (the caller takes the general path).
    @inlinable @inline(__always)
    func enterFastPath(_ index: Int, typeID: ObjectIdentifier) throws -> Unmanaged<AnyFactory>? {
        let entry = state.pointee.hotRegistrations[index]
        guard entry.lifetime == .transient, entry.isTyped, entry.typeID == typeID, entry.argumentCount == 0 else { return nil }
        // Deep paths take the general path, which also watches the stack.
        if state.pointee.pathCount >= InlinePath.capacity { return nil }
        if pathContains(Int32(index)) { throw cycleError(index) }
        // Every build, not only the first: a factory may close the container mid-resolve.
        if state.pointee.container.isClosedForResolving { throw closedError(index) }
        if state.pointee.pathCount == 0 {
            // Started inside a factory, through a container it captured: not a
            // second resolve of what it builds, and one it declares.
            if state.pointee.outer != nil {
                try checkReentry(index)
                try checkDeclaredByOuter(index)
            }
        }
        pushPath(Int32(index))
        return entry.factory
    }

    /// Resolves registration `index` as a `T` with no runtime arguments:
    /// transient typed registrations (most of a graph) are built right here,
    /// specialized for T; a built singleton is returned; anything else takes
    /// the general path. Used by both top-level and nested resolves.
    @inlinable @inline(__always)
    func resolveInline<T>(_ index: Int, as type: T.Type) throws -> T {
        if let factory = try enterFastPath(index, typeID: ObjectIdentifier(T.self)) {
            defer { leaveFastPath() }
            let built: T
            do {
                // _withUnsafeGuaranteedRef: the plan holds the factory for the call; unsafeDowncast:
                // enterFastPath returned it only because its typed ID is T's, so it is a TypedFactory<T>.
                built = try factory._withUnsafeGuaranteedRef {
                    try unsafeDowncast($0, to: TypedFactory<T>.self).makeTyped(Resolver(context: self, current: index), .none)
                }
            } catch {
                if state.pointee.undeclaredPending { try throwUndeclared(index, handingOut: false) }
                throw factoryError(error, index)
            }
            // The factory resolved what it does not declare, and went on (see `checkDeclaredByOuter`),
            // or closed the container.
            if state.pointee.undeclaredPending { try throwUndeclared(index, handingOut: true) }
            return built
        }
        if state.pointee.pathCount == 0 && state.pointee.outer != nil { try checkDeclaredByOuter(index) }
        if let built = builtSingleton(index), let value = built as? T { return value }
        return try resolve(index, as: T.self, arguments: .none)
    }

    /// The instance of singleton registration `index` if it is built already
    /// (nothing to check then: it cannot be part of a cycle or captive).
    @usableFromInline
    func builtSingleton(_ index: Int) -> Any? {
        let entry = state.pointee.hotRegistrations[index]
        guard entry.lifetime == .singleton else { return nil }
        return state.pointee.container.slots[Int(entry.slot)].value
    }

    @inlinable @inline(__always)
    func leaveFastPath() { state.pointee.pathCount -= 1 }

    /// A factory's error, as `build` reports it.
    @usableFromInline
    func factoryError(_ error: Error, _ index: Int) -> Error {
        if error is RegistryError { return error }
        let planned = plan.registrations[index]
        return self.error(.factoryFailed, "the factory for \(planned.name) failed: \(error)",
                          details: ["registered at \(planned.registration.origin)"], origin: planned.registration.origin)
    }

    /// Resolves registration `index` as a `T`, honouring its scope.
    @usableFromInline
    func resolve<T>(_ index: Int, as type: T.Type, arguments: Arguments) throws -> T {
        let entry = hotRegistrations[index]
        if pathContains(Int32(index)) { throw cycleError(index) }
        if container.isClosedForResolving { throw closedError(index) }
        if pathCount == 0 {
            if state.pointee.outer != nil {
                if entry.argumentCount == 0 { try checkReentry(index) }
                try checkDeclaredByOuter(index)
            }
        }
        if currentStackAddress() < stackFloor { throw tooDeepError(index) }
        pushPath(Int32(index))
        defer { pathCount -= 1 }
        switch entry.lifetime {
        case .transient:
            // (Its factory may close the container: `build` then hands nothing out.)
            return try build(index, entry, as: T.self, arguments)
        case .graph:
            if let existing = state.pointee.graphInstances?[index] { return try cast(existing, index) }
            let value = try build(index, entry, as: T.self, arguments)
            if state.pointee.graphInstances == nil { state.pointee.graphInstances = [:] }
            state.pointee.graphInstances?[index] = value      // in place: no copy of the dictionary
            return value
        case .singleton, .weak:
            let slot = container.slots[Int(entry.slot)]
            if let existing = slot.value { return try cast(existing, index) }
            return try container.creationLock.withLock {
                if let existing = slot.value { return try cast(existing, index) }
                try container.checkOpen("build \(plan.registrations[index].name)")
                // Building it asked for it again (through a child, its parent or
                // a provider: a path this resolve cannot see): a cycle.
                if slot.isBeingBuilt { try throwBeingBuiltCycle(index) }
                slot.isBeingBuilt = true
                defer { slot.isBeingBuilt = false }
                let value = try build(index, entry, as: T.self, arguments)
                if entry.lifetime == .weak && !(Swift.type(of: value as Any) is AnyObject.Type) {
                    let planned = plan.registrations[index]
                    throw error(.wrongType, "\(planned.name) is weak-scoped, but its factory made a \(typeName(of: value)), which is not a class instance",
                                details: ["registered at \(planned.registration.origin)"], origin: planned.registration.origin)
                }
                if entry.lifetime == .singleton {
                    // Its factory may have closed the container: then it is closed too, not kept.
                    try container.keepBuilt(value, slot: Int(entry.slot), registration: plan.registrations[index].registration)
                } else {
                    slot.store(value)
                }
                return value
            }
        case .parent:
            return try cast(resolveInParent(index, arguments), index)
        case .custom:
            let planned = plan.registrations[index]
            guard case .custom(let scopeName) = planned.lifetime else { return try build(index, entry, as: T.self, arguments) }
            let scope = try findScope(scopeName, for: planned)
            try checkCaptive(planned, scopeName)
            if let existing = try scope.instance(at: index) { return try cast(existing, index) }
            return try container.creationLock.withLock {
                if let existing = try scope.instance(at: index) { return try cast(existing, index) }
                let value = try build(index, entry, as: T.self, arguments)
                try store(value, in: scope, at: index)
                return value
            }
        }
    }

    // The rarer paths of `resolve`, out of its frame: every level of a deep
    // graph pays for the stack `resolve` takes.

    /// A registration the parent container owns (a child's plan): resolved
    /// there, with the parent's registrations — after the checks a scoped
    /// instance gets here (a child's singleton must not capture the
    /// parent's session object either).
    @inline(never)
    private func resolveInParent(_ index: Int, _ arguments: Arguments) throws -> Any {
        let planned = plan.registrations[index]
        guard let parent = container.parent else {
            throw error(.containerClosed, "\(planned.name) belongs to a parent container that is gone", origin: planned.registration.origin)
        }
        try container.creationLock.withLock { try container.checkOpen("build \(planned.name)") }
        if case .custom(let scopeName) = planned.lifetime { try checkCaptive(planned, scopeName) }
        // Straight to the ancestor that owns it, in a loop: a chain of
        // children is as deep as a script made it, too deep to recurse through.
        var owner = parent
        while let next = owner.parent, let found = owner.plan.index.find(planned.key),
              owner.plan.registrations[found].delegatesToParent {
            try owner.creationLock.withLock { try owner.checkOpen("build \(planned.name)") }
            owner = next
        }
        let ownerContainer = owner
        do {
            return try ResolutionContext.detached { try ownerContainer.resolveAny(planned.key, arguments: arguments) }
        } catch var error as RegistryError where error.kind == .scopeNotOpen {
            error.details.append("\(planned.name) is the parent container's: its scopes are the parent's "
                                 + "(open them on the parent; a child shares the scopes open there)")
            throw error
        }
    }

    @inline(never)
    private func throwBeingBuiltCycle(_ index: Int) throws {
        let planned = plan.registrations[index]
        throw error(.cycle, "dependency cycle: \(planned.name) is being built, and building it asked for it again "
                     + "(through another container — a child or its parent — or a provider)",
                     details: ["registered at \(planned.registration.origin)"], origin: planned.registration.origin)
    }

    /// Keeps `value` in `scope` — or, if the scope closed while its factory
    /// ran, closes it too and throws.
    @inline(never)
    private func store(_ value: Any, in scope: ScopeHandle, at index: Int) throws {
        do {
            try scope.store(value, at: index)
        } catch {
            let planned = plan.registrations[index]
            var failures = DisposalFailures()
            failures.dispose(value, registration: planned.registration, disposer: container.disposer)
            throw failures.error(closing: "\(planned.name), built as its scope closed", configuration: plan.configuration) ?? error
        }
    }

    @usableFromInline
    func cycleError(_ index: Int) -> RegistryError {
        let planned = plan.registrations[index]
        let path = self.path
        let start = path.firstIndex(of: index) ?? 0
        let cycle = path[start...].map { plan.registrations[$0].name } + [planned.name]
        return error(.cycle, "dependency cycle: " + cycle.joined(separator: " → "), adding: planned.name,
                     details: path[start...].map { "\(plan.registrations[$0].name) registered at \(plan.registrations[$0].registration.origin)" },
                     origin: planned.registration.origin)
    }

    /// A top-level resolve of registration `index` (no runtime arguments)
    /// started inside a factory that an enclosing resolve of the same
    /// container is running for `index` or for something `index` is being
    /// built for: it would build the same thing again, for ever. (With
    /// runtime arguments a recursion may end — a tree built level by level —
    /// and the stack guard still bounds it.)
    @usableFromInline
    func checkReentry(_ index: Int) throws {
        var cursor = state.pointee.outer
        while let outer = cursor {
            let context = ResolutionContext(state: outer, token: 0)
            let path = context.path
            if let start = path.firstIndex(of: index) {
                let planned = plan.registrations[index]
                let inner = path.last.map { plan.registrations[$0] }
                let cycle = path[start...].map { plan.registrations[$0].name } + [planned.name]
                throw RegistryError(
                    .cycle, "dependency cycle: " + cycle.joined(separator: " → "),
                    configuration: plan.configuration, path: cycle,
                    details: path[start...].map { "\(plan.registrations[$0].name) registered at \(plan.registrations[$0].registration.origin)" }
                        + ["the second resolve of \(planned.name) came from inside the factory for \(inner?.name ?? "?")"
                           + (inner.map { " (registered at \($0.registration.origin))" } ?? "")
                           + ", through a container or provider it called"],
                    origin: planned.registration.origin)
            }
            cursor = outer.pointee.outer
        }
    }

    /// A resolve started inside a factory, through a container (or scope)
    /// of the same container the factory runs in: what it resolves must be
    /// one of that factory's declared dependencies, or the graph `check` and
    /// `graph` show is not the graph that is built. (A provider's call is
    /// declared already, by whoever declared the provider.)
    @usableFromInline @inline(never)
    func checkDeclaredByOuter(_ index: Int) throws {
        guard let outer = state.pointee.outer, !state.pointee.fromProvider else { return }
        let outerPath = ResolutionContext(state: outer, token: 0).path
        guard let building = outerPath.last, building != index else { return }     // the same one: a cycle, reported apart
        let holder = plan.registrations[building]
        if holder.instanceDependencies.contains(index) || holder.providerDependencies.contains(index) { return }
        let planned = plan.registrations[index]
        let error = RegistryError(
            .undeclaredDependency,
            "the factory for \(holder.name) resolved \(planned.name) through a container, but does not declare it",
            configuration: plan.configuration, path: outerPath.map { plan.registrations[$0].name } + [planned.name],
            details: ["registered at \(holder.registration.origin): add \(planned.name) to its dependencies "
                      + "(a provider of it, to build it later), so check and graph see the edge"],
            origin: holder.registration.origin)
        // The factory fails with it as it is, however its code handled it.
        if outer.pointee.undeclared == nil {
            outer.pointee.undeclared = error
            outer.pointee.undeclaredPending = true
        }
        throw error
    }

    private func tooDeepError(_ index: Int) -> RegistryError {
        let planned = plan.registrations[index]
        return error(.tooDeep, "the graph is too deep to build: \(pathCount) nested resolves exhausted the thread's stack",
                     adding: planned.name, origin: planned.registration.origin)
    }

    /// Runs the factory of registration `index`, after checking the arguments.
    /// A resolve its factory made of what it does not declare fails it with
    /// that error, whatever the factory did with it (see ``checkDeclaredByOuter(_:)``).
    @inline(__always)
    private func build<T>(_ index: Int, _ entry: HotRegistration, as type: T.Type, _ arguments: Arguments) throws -> T {
        if arguments.count != 0 || entry.argumentCount != 0 { try checkArguments(arguments, for: plan.registrations[index]) }
        let resolver = Resolver(context: self, current: index)
        do {
            let built: T
            // A typed factory registered for exactly T: call it without any cast
            // (a generic `as?` would look up TypedFactory<T>'s metadata every time).
            // _withUnsafeGuaranteedRef: the plan, which the container holds for the call, holds the factory.
            if entry.isTyped && entry.typeID == ObjectIdentifier(T.self) {
                built = try entry.factory._withUnsafeGuaranteedRef {
                    try unsafeDowncast($0, to: TypedFactory<T>.self).makeTyped(resolver, arguments)
                }
            } else {
                let value = try entry.factory._withUnsafeGuaranteedRef { try $0.make(resolver, arguments) }   // (as above)
                // Already checked by the factory, and asked for as Any: hand it over as it is.
                if T.self == Any.self, entry.checksResults, let value = value as? T {
                    built = value
                } else {
                    let planned = plan.registrations[index]
                    guard planned.key.type.accepts(value) else {
                        throw error(.wrongType,
                                    "the factory for \(planned.name) returned \(describe(value)), expected \(planned.key.type.name)",
                                    details: ["registered at \(planned.registration.origin)"], origin: planned.registration.origin)
                    }
                    built = try cast(value, index)
                }
            }
            // What a factory that closed the container made is not handed out (what depends
            // on it is not built), as a singleton finished after a close is not kept (`keep`).
            if state.pointee.undeclaredPending {
                try throwUndeclared(index, handingOut: entry.lifetime == .transient || entry.lifetime == .graph)
            }
            return built
        } catch var error as RegistryError {
            if state.pointee.undeclaredPending { try throwUndeclared(index, handingOut: false) }
            // Thrown by the factory itself (a script factory's type check, say):
            // give it the configuration and path the registry knows.
            if error.configuration == nil {
                error.configuration = plan.configuration
                error.path = pathNames(adding: nil)
            }
            throw error
        } catch {
            if state.pointee.undeclaredPending { try throwUndeclared(index, handingOut: false) }
            let planned = plan.registrations[index]
            throw self.error(.factoryFailed, "the factory for \(planned.name) failed: \(error)",
                             details: ["registered at \(planned.registration.origin)"], origin: planned.registration.origin)
        }
    }

    /// Throws the undeclared resolve a factory made (see `undeclaredPending`)
    /// — or, `handingOut` registration `index`'s instance (transient or
    /// graph-scoped) after a factory closed the container, that it is not
    /// handed out. (Out of line, like the other rare errors of `resolve`
    /// and `build`: a thrown error's temporaries would take room in their
    /// frames, which every level of a deep graph pays for.)
    @usableFromInline @inline(never)
    func throwUndeclared(_ index: Int, handingOut: Bool) throws {
        if let error = state.pointee.undeclared {
            state.pointee.undeclared = nil
            state.pointee.undeclaredPending = state.pointee.closedInside
            throw error
        }
        if state.pointee.closedInside {
            if handingOut { throw closedWhileBuilt(index) }
            return
        }
        state.pointee.undeclaredPending = false
        throw RegistryError(.undeclaredDependency, "a factory resolved what it does not declare")
    }

    /// Marks the resolves active on this thread through `scope`, or a scope
    /// nested in it, as closed inside (see ``containerClosed(_:)``): a
    /// ``ScopeHandle`` calls it as it closes (attack 11: a transient whose
    /// factory closed the scope it was resolved through was handed out).
    static func scopeClosed(_ scope: ScopeHandle) {
        var cursor = fh_active_state().map { UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: ResolutionState.self)) }
        while let state = cursor {
            var through = state.pointee.scope
            while let handle = through, handle !== scope { through = handle.parent }
            if through != nil {
                state.pointee.closedInside = true
                state.pointee.undeclaredPending = true
            }
            cursor = state.pointee.outer
        }
    }

    /// Marks the resolves active on this thread that are `container`'s as
    /// closed inside (``ResolutionState/closedInside``): its ``Container``
    /// calls it as it closes.
    static func containerClosed(_ container: Container) {
        var cursor = fh_active_state().map { UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: ResolutionState.self)) }
        while let state = cursor {
            if state.pointee.container === container {
                state.pointee.closedInside = true
                state.pointee.undeclaredPending = true
            }
            cursor = state.pointee.outer
        }
    }

    private func cast<T>(_ value: Any, _ index: Int) throws -> T {
        if let typed = value as? T { return typed }
        let planned = plan.registrations[index]
        throw error(.wrongType, "\(planned.name) is \(describe(value)), not a \(String(describing: T.self))",
                    details: ["registered at \(planned.registration.origin)"], origin: planned.registration.origin)
    }

    private func describe(_ value: Any) -> String {
        "a value of type \(typeName(of: value))"
    }

    func checkArguments(_ arguments: Arguments, for planned: PlannedRegistration) throws {
        let specs = planned.arguments
        let expected = specs.isEmpty ? "no runtime arguments" : specs.map(\.description).joined(separator: ", ")
        guard arguments.count == specs.count else {
            throw error(.argumentMismatch,
                        "\(planned.name) takes \(specs.count) runtime argument\(specs.count == 1 ? "" : "s") (\(expected)), got \(arguments.count)",
                        details: ["registered at \(planned.registration.origin)"], origin: planned.registration.origin)
        }
        for (spec, value) in zip(specs, arguments.values) where !spec.type.accepts(value) {
            throw error(.argumentMismatch,
                        "argument '\(spec.name)' of \(planned.name): expected \(spec.type.name), got \(typeName(of: value))",
                        details: ["registered at \(planned.registration.origin)"], origin: planned.registration.origin)
        }
    }

    // MARK: Scopes

    /// The open scope of `name` that holds `planned`'s instance: on the
    /// path of the scope resolved through, else the container's newest.
    func findScope(_ name: String, for planned: PlannedRegistration) throws -> ScopeHandle {
        guard plan.scopes[name] != nil else {
            throw error(.unknownScope, "\(planned.name) is registered in scope '\(name)', which is not declared"
                        + NameSuggestion.didYouMean(name, among: plan.scopes.keys),
                        details: ["registered at \(planned.registration.origin)"], origin: planned.registration.origin)
        }
        if let start = scope {
            if let handle = start.enclosing(named: name) { return handle }
            throw error(.scopeNotOpen, "no '\(name)' scope is open to hold \(planned.name)",
                        details: ["resolved through a '\(start.name)' scope, which is not inside a '\(name)' scope"],
                        origin: planned.registration.origin)
        }
        switch container.scopeChoice(named: name) {
        case .found(let handle):
            return handle
        case .none:
            throw error(.scopeNotOpen, "no '\(name)' scope is open to hold \(planned.name)",
                        details: ["open one first: c:openScope \"\(name)\" (in Swift, container.openScope(\"\(name)\"))"], origin: planned.registration.origin)
        case .outsideCurrent(let current):
            throw error(.scopeNotOpen, "no '\(name)' scope is open to hold \(planned.name)",
                        details: ["resolved inside withCurrent of a '\(current.name)' scope, which is not inside a '\(name)' scope"],
                        origin: planned.registration.origin)
        case .several:
            throw error(.scopeAmbiguous, "several '\(name)' scopes are open: a resolve from the container does not pick one to hold \(planned.name)",
                        details: ["resolve through the scope (scope.resolve(…)), or inside scope.withCurrent { … } (a script's c:resolve takes the newest)"],
                        origin: planned.registration.origin)
        }
    }

    /// A longer-lived instance on the path may not capture a scoped one.
    private func checkCaptive(_ planned: PlannedRegistration, _ scopeName: String) throws {
        for holderIndex in path.dropLast().reversed() {
            let holder = plan.registrations[holderIndex]
            if let reason = plan.captiveReason(holder: holder, scope: scopeName) {
                throw error(.captiveDependency, "captive dependency: \(reason)",
                            details: ["\(holder.name) registered at \(holder.registration.origin)",
                                      "\(planned.name) registered at \(planned.registration.origin)",
                                      ScopeRules.captiveFix(holder: holder, captured: planned, scope: scopeName)],
                            origin: holder.registration.origin)
            }
            if holder.lifetime != .transient && holder.lifetime != .graph { break }
        }
    }
}


/// Sixteen path entries stored in the resolution state itself.
@usableFromInline
struct InlinePath {
    @inlinable static var capacity: Int { 16 }
    @usableFromInline var storage: (Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64) = (0, 0, 0, 0, 0, 0, 0, 0)
    @usableFromInline init() {}
}
