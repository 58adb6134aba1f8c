import FactoryhostSupport
/// One open instance of a custom scope (`session`, `screen`, …). It holds
/// the instances registered in that scope until it is closed; closing
/// closes its nested scopes first, then releases its instances newest first,
/// so `deinit`s run in a predictable order.
///
/// ```swift
/// let session = try container.openScope("session")
/// let screen = try session.openScope("screen")
/// let loader = try screen.resolve(MovieLoader.self)   // screen-scoped
/// try screen.close()                                  // the loader is released here
/// try session.close()
/// ```
// @unchecked Sendable: `instances`, `creationOrder`, `children`, `closed` and `enclosingByName` are read and written only under
// `lock`; `container` is weak and set only in init; the rest are lets.
public final class ScopeHandle: Resolving, @unchecked Sendable {
    /// The scope's name.
    public let name: String
    /// The scope it nests in, if any.
    public let parent: ScopeHandle?
    weak var container: Container?
    private let lock = Lock()
    private var instances: [Int: Any] = [:]
    private var creationOrder: [Int] = []
    /// Nested scopes open now. Weak: the container holds open scopes, and a
    /// child holds its parent; a strong list here would make a cycle that
    /// outlives the container when the parent is never closed.
    /// By identity, each with its place in the order opened: adding and
    /// forgetting one cost the same however many are open (a session's
    /// 40,000 screens: a list made each a search, and its pruning each 64th).
    private var children: [ObjectIdentifier: WeakScope] = [:]
    private var childrenOpened = 0
    private var closed = false
    /// The scopes this one is in, by name, as found (each name walked for once).
    private var enclosingByName: [String: ScopeHandle] = [:]

    /// The nearest scope named `name` from this one up, itself included;
    /// nil when none. Found once per name, then remembered (its ancestors
    /// are held by `parent` already), or taken from an enclosing scope that
    /// found it: resolving a registration bound to the
    /// outermost of 100,000 nested scopes from the innermost walked them
    /// all at every resolve (1,000 resolves, 18.6 s).
    func enclosing(named name: String) -> ScopeHandle? {
        if self.name == name { return self }
        if let known = lock.withLock({ enclosingByName[name] }) { return known }
        var cursor = parent
        while let handle = cursor, handle.name != name {
            // An enclosing scope that found it already says where it is: each of
            // 40,000 nested scopes resolving once walked up from itself (27 s).
            if let known = handle.lock.withLock({ handle.enclosingByName[name] }) { cursor = known; break }
            cursor = handle.parent
        }
        if let found = cursor { lock.withLock { enclosingByName[name] = found } }
        return cursor
    }

    /// The instances held now, oldest first, with their registration indexes.
    func instancesInOrder() -> [(Int, Any)] {
        lock.withLock { creationOrder.compactMap { index in instances[index].map { (index, $0) } } }
    }

    init(name: String, parent: ScopeHandle?, container: Container) {
        self.name = name
        self.parent = parent
        self.container = container
    }

    /// Dropped without ``close()`` (Swift code's handle is the scope's life;
    /// a script's scope stays open until closed): its instances are released
    /// as a close releases them — newest first, each told — and the
    /// container counts it (``Container/scopesDroppedOpen``). What closing
    /// them throws has no one to go to and is dropped.
    deinit {
        guard !closed else { return }
        closed = true
        var failures = DisposalFailures()
        // (Its nested scopes hold it: they are gone by now.)
        children = [:]
        release(into: &failures)
        parent?.forget(self)
        container?.scopeWasDropped(ObjectIdentifier(self), name: name)
    }

    /// Resolves through this scope: its instances, then its parents'.
    public var resolutionEntry: ResolutionEntry { ResolutionEntry(container: container, scope: self) }

    /// The scope resolves from its container use in this task (or thread),
    /// set by ``withCurrent(_:)``: a request handler's code resolves from
    /// the container and gets its own request's instances.
    @TaskLocal public static var current: ScopeHandle?

    /// Runs `body` with this scope as ``current``: a resolve from its
    /// container, or a scope opened there, uses this scope (or the one of
    /// the name it is in) — never another request's.
    ///
    /// ```swift
    /// let request = try container.openScope("request", with: [ScopedValue(incoming)])
    /// defer { try? request.close() }
    /// let handler = try request.withCurrent { try container.resolve(Handler.self) }
    /// ```
    ///
    /// - Throws: what `body` throws.
    public func withCurrent<R>(_ body: () throws -> R) rethrows -> R {
        try ScopeHandle.$current.withValue(self, operation: body)
    }

    /// ``withCurrent(_:)`` for async code: child tasks inherit it.
    ///
    /// ```swift
    /// try await request.withCurrent { try await handle(container.resolve(Handler.self)) }
    /// ```
    ///
    /// - Throws: what `body` throws.
    public func withCurrent<R>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R) async rethrows -> R {
        try await ScopeHandle.$current.withValue(self, operation: body, isolation: isolation)
    }

    /// Whether ``close()`` has run.
    public var isClosed: Bool { lock.withLock { closed } }

    /// How many instances the scope holds now.
    public var instanceCount: Int { lock.withLock { instances.count } }

    /// Opens a scope nested in this one (`screen` inside `session`).
    ///
    /// - Throws: `RegistryError`: `.unknownScope`, `.scopeNotOpen` when `name` does not nest in this scope (or a scope it is in), `.scopeClosed` when this scope or its container is gone or closed.
    public func openScope(_ name: String) throws -> ScopeHandle {
        guard let container else {
            throw RegistryError(.containerClosed, "cannot open scope '\(name)': the container is gone")
        }
        guard let declaration = container.plan.scopes[name] else { throw container.unknownScope(name) }
        // Found through the names remembered on the way (a walk up each time made
        // 200,000 nested screens a minute's work: attack 12).
        guard let parentName = declaration.parent, let parent = enclosing(named: parentName) else {
            throw RegistryError(.scopeNotOpen,
                                "cannot open scope '\(name)' inside '\(self.name)': "
                                + (declaration.parent.map { "it nests in '\($0)'" } ?? "it is a top-level scope; open it from the container"),
                                configuration: container.configuration)
        }
        return try container.open(name, parent: parent)
    }

    /// Opens a scope nested in this one holding `values` (see ``ScopedValue``).
    ///
    /// ```swift
    /// let job = try session.openScope("job", with: [ScopedValue(order)])
    /// ```
    ///
    /// - Throws: `RegistryError`: as ``openScope(_:)``; `.missingRegistration` or `.invalidRegistration` for a value
    ///   whose key is not registered in that scope (then nothing is opened).
    public func openScope(_ name: String, with values: [ScopedValue]) throws -> ScopeHandle {
        guard let container else {
            throw RegistryError(.containerClosed, "cannot open scope '\(name)': the container is gone")
        }
        let places = try container.plan.places(of: values, inScope: name)
        return try openScope(name).giving(places)
    }

    /// Holds `places`' values as given (never closed by the scope: its opener owns them); returns self.
    func giving(_ places: [(index: Int, value: Any)]) throws -> ScopeHandle {
        try lock.withLock {
            if closed { throw closedError() }
            for (index, value) in places { instances[index] = value }
        }
        return self
    }

    func adopt(_ child: ScopeHandle) throws {
        try lock.withLock {
            if closed { throw closedError() }
            children[ObjectIdentifier(child)] = WeakScope(handle: child, order: childrenOpened)
            childrenOpened += 1
        }
    }

    /// A nested scope closed: forget it (a long session opens thousands).
    private func forget(_ child: ScopeHandle) {
        lock.withLock {
            children[ObjectIdentifier(child)] = nil
        }
    }

    func instance(at index: Int) throws -> Any? {
        try lock.withLock {
            if closed { throw closedError() }
            return instances[index]
        }
    }

    func store(_ value: Any, at index: Int) throws {
        try lock.withLock {
            if closed { throw closedError() }
            instances[index] = value
            creationOrder.append(index)
        }
    }

    @usableFromInline
    func closedError() -> RegistryError {
        RegistryError(.scopeClosed, "the '\(name)' scope is closed", configuration: container?.configuration)
    }

    /// Closes nested scopes, then releases this scope's instances, newest
    /// first: a ``ScopeBound`` instance hears it, any other goes to the
    /// container's ``InstanceDisposer`` (a script host closes Lua objects).
    /// Every instance is closed even if some fail; the failures are then
    /// thrown together. Closing twice does nothing.
    ///
    /// - Throws: `RegistryError` (`.disposalFailed`) when closing some instances failed, after every instance was closed.
    public func close() throws {
        var failures = DisposalFailures()
        closeCollecting(&failures)
        if let error = failures.error(closing: "scope '\(name)'", configuration: container?.configuration) { throw error }
    }

    func closeCollecting(_ failures: inout DisposalFailures) {
        // Nested scopes before their parent, newest first, without recursion
        // (nesting is as deep as a configuration declares it).
        enum Step { case begin(ScopeHandle), finish(ScopeHandle) }
        var steps: [Step] = [.begin(self)]
        while let step = steps.popLast() {
            switch step {
            case .begin(let scope):
                guard let nested = scope.beginClosing() else { continue }
                ResolutionContext.scopeClosed(scope)           // a factory of a resolve on this thread through it closed it
                steps.append(.finish(scope))
                steps += nested.compactMap { $0.handle.map { .begin($0) } }    // the newest is popped first
            case .finish(let scope):
                scope.finishClosing(into: &failures)
            }
        }
    }

    /// Marks the scope closed (it stores nothing more) and hands back its
    /// nested scopes; nil when it was closed already.
    private func beginClosing() -> [WeakScope]? {
        lock.withLock {
            guard !closed else { return nil }
            closed = true
            defer { children = [:] }
            return children.values.sorted { $0.order < $1.order }
        }
    }

    /// Releases the instances of a scope ``beginClosing()`` closed.
    private func finishClosing(into failures: inout DisposalFailures) {
        release(into: &failures)
        parent?.forget(self)
        container?.scopeDidClose(self)
    }

    /// Releases its instances, newest first.
    private func release(into failures: inout DisposalFailures) {
        var order: [Int] = [], held: [Int: Any] = [:]
        lock.withLock {
            swap(&order, &creationOrder)
            swap(&held, &instances)
        }
        // Each removal drops the scope's reference: deinit runs here, newest
        // first, unless something else still holds the instance — which is
        // told (ScopeBound) or disposed of either way.
        let container = self.container
        for index in order.reversed() {
            guard let instance = held.removeValue(forKey: index) else { continue }
            let registration = container.flatMap { index < $0.plan.registrations.count ? $0.plan.registrations[index].registration : nil }
            failures.dispose(instance, registration: registration, disposer: container?.disposer)
        }
    }
}

/// A nested scope, held weakly by its parent.
struct WeakScope {
    weak var handle: ScopeHandle?
    /// Its place among its parent's nested scopes, in the order opened.
    let order: Int
}
