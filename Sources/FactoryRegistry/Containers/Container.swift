import CActiveResolve
import FactoryhostSupport
/// One live instance of a configuration. It owns its singletons; containers
/// of one configuration share nothing. Resolving is thread-safe: transient
/// resolution takes no lock, and a singleton is built exactly once however
/// many threads ask for it.
///
/// ```swift
/// let container = try registry.container("app-tests")
/// let loader = try container.resolve(MovieLoader.self)
/// let child = try container.resolve(ChildViewController.self, argument: user)
/// let session = try container.openScope("session")
/// let user = try session.resolve(UserSession.self)
/// try session.close()                 // releases the session's instances, newest first
/// try container.close()               // and the container's singletons
/// ```
// @unchecked Sendable: `builtOrder`, `closed` and `children` only under `creationLock`; `openScopeList` only
// under `scopeLock`; `disposer` is weak and set only in init; everything else is a let (the plan immutable).
public final class Container: Resolving, @unchecked Sendable {
    /// The configuration this container is an instance of.
    public var configuration: String { plan.configuration }
    @usableFromInline let plan: ContainerPlan
    /// The plan's hot data as trivial values, copied into each resolve.
    @usableFromInline let template: ResolutionTemplate
    let slots: [InstanceSlot]
    /// Held while a singleton, weak or scoped instance is built: one builder
    /// at a time, so no two threads build the same instance and no lock-order
    /// deadlock can arise between instances that depend on each other.
    let creationLock = Lock(recursive: true)
    private let scopeLock = Lock()
    private var openScopeList = OpenScopes()
    /// See ``scopesDroppedOpen`` (under `scopeLock`).
    private var droppedOpen = 0
    /// Told about instances let go that are not ScopeBound (set at creation).
    weak var disposer: (any InstanceDisposer)?
    /// The container this one is a child of (see ``child(_:)``): it owns
    /// what this one shares of it, and outlives this one.
    public let parent: Container?
    /// The singletons' slots in the order they were built (under the creation lock).
    private var builtOrder: [Int] = []
    private var closed = false
    /// `closed`, readable without the lock: every resolve checks it on entry.
    @usableFromInline let closedFlag: UnsafeMutablePointer<Int32> = {
        let flag = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        flag.initialize(to: 0)
        return flag
    }()
    /// Children made from this container (weakly: a child keeps its parent,
    /// not the other way round), closed before it.
    private var children: [WeakContainer] = []

    deinit { closedFlag.deallocate() }

    /// Whether the container is closed, without taking its lock.
    @usableFromInline var isClosedForResolving: Bool { fh_flag_is_raised(closedFlag) != 0 }

    init(plan: ContainerPlan, disposer: (any InstanceDisposer)? = nil, parent: Container? = nil) throws {
        self.plan = plan
        self.disposer = disposer
        self.parent = parent
        self.template = ResolutionTemplate(plan: plan)
        slots = plan.registrations.filter { $0.slot >= 0 }.map { InstanceSlot(weak: $0.lifetime == .weak) }
        for index in plan.eagerSingletons {
            _ = try ResolutionContext.run(container: self, scope: nil) { try $0.resolve(index, as: Any.self, arguments: .none) }
        }
    }

    /// Where ``Resolving``'s resolves start: the container itself, with no scope open.
    public var resolutionEntry: ResolutionEntry { ResolutionEntry(container: self, scope: nil) }

    /// An instance of `type` (the one named `name`). The same as
    /// ``Resolving``'s, without the entry indirection — the hot path for
    /// container-level resolves.
    ///
    /// - Throws: `RegistryError`, naming the resolution path and the origins: `.missingRegistration`, `.cycle`, `.captiveDependency`, `.scopeNotOpen`, `.argumentMismatch`, `.wrongType`, `.undeclaredDependency`, `.tooDeep`, `.scopeClosed`, `.containerClosed`, or `.factoryFailed` carrying what a factory threw.
    @inlinable
    public func resolve<T>(_ type: T.Type = T.self, name: String? = nil) throws -> T {
        guard let index = template.keys.find(ObjectIdentifier(type), name) else {
            return try resolve(type, name: name, arguments: .none)      // reports the missing registration
        }
        return try ResolutionContext.run(container: self, scope: nil) { try $0.resolveInline(index, as: T.self) }
    }

    /// Runs `body` as if no resolve were under way on this thread: what it
    /// resolves is no factory's dependency. For code that runs during a
    /// factory's call without being the factory's own — a finalizer the
    /// garbage collector happened to run there.
    ///
    /// ```swift
    /// let log = try Container.outsideAnyResolve { try container.resolve(Logger.self) }
    /// ```
    ///
    /// - Throws: What `body` throws.
    public static func outsideAnyResolve<R>(_ body: () throws -> R) rethrows -> R {
        try ResolutionContext.detached(body)
    }

    // MARK: Children

    /// A container that overrides some of this one's registrations (and may
    /// add more) while sharing what this one owns: its singletons, weak and
    /// scoped instances are resolved here, by this container, with its own
    /// registrations — so none of them ever captures one of the child's.
    /// Everything else (transients, the child's own registrations) is built
    /// in the child, with the child's registrations. The child keeps this
    /// container alive; closing the child closes only what it owns.
    ///
    /// ```swift
    /// var fake = Registration(key: ServiceKey(HTTPSession.self), scope: .singleton, origin: .here(),
    ///                         factory: TypedFactory { _, _ in HTTPSession(baseURL: "fixture://") })
    /// let child = try container.child([fake])
    /// let loader = try child.resolve(MovieLoader.self)     // the fake session, the parent's cache
    /// ```
    ///
    /// - Throws: `RegistryError`: `.containerClosed` when this container is closed; a registration problem of the child's (a duplicate, a captive dependency) as `registry.validate` names it; what building an eager singleton threw.
    public func child(_ registrations: [Registration]) throws -> Container {
        try creationLock.withLock { try checkOpen("make a child") }
        let plan = try ContainerPlan(childOf: self.plan, adding: registrations)
        let child = try Container(plan: plan, disposer: disposer, parent: self)
        // Listed unless this one was closed meanwhile — by an eager singleton of the
        // child's, say: then the child closes too, and is not handed out (it was, open).
        let closedMeanwhile = creationLock.withLock {
            if closed { return true }
            if children.count >= 64 && children.count.isMultiple(of: 64) { children.removeAll { $0.container == nil } }
            children.append(WeakContainer(container: child))
            return false
        }
        if closedMeanwhile {
            try? child.close()
            throw RegistryError(.containerClosed, "cannot make a child: container '\(configuration)' was closed while the child was made")
        }
        return child
    }

    /// Whether a child container made from this one (``child(_:)``) is still alive.
    public var hasLiveChildren: Bool {
        let living = creationLock.withLock { children.compactMap(\.container) }
        return living.contains { !$0.isClosed }
    }

    // MARK: Closing

    /// Whether ``close()`` has run: the container builds nothing again — no
    /// singleton, scoped instance or transient.
    public var isClosed: Bool { creationLock.withLock { closed } }

    /// Closes the container: its open scopes (newest first), then its
    /// singletons, newest first — a ``ScopeBound`` singleton hears it, any
    /// other goes to the ``InstanceDisposer`` (a script host closes Lua
    /// objects). Every instance is closed even if some fail; the failures
    /// are then thrown together. Closing twice does nothing.
    ///
    /// ```swift
    /// let container = try registry.container("app")
    /// defer { try? container.close() }
    /// ```
    ///
    /// - Throws: `RegistryError` (`.disposalFailed`) when closing some instances failed, after every instance was closed.
    public func close() throws {
        var failures = DisposalFailures()
        // Children before their parent, newest first, without recursion: a
        // chain of children is as deep as a script made it (c = c:child {}
        // 200,000 times), far deeper than a thread's stack.
        enum Step { case begin(Container), finish(Container, builtOrder: [Int]) }
        var steps: [Step] = [.begin(self)]
        while let step = steps.popLast() {
            switch step {
            case .begin(let container):
                guard let (order, living) = container.beginClosing() else { continue }
                steps.append(.finish(container, builtOrder: order))
                steps += living.map { .begin($0) }         // the newest is popped, and closed, first
            case .finish(let container, let order):
                container.finishClosing(builtOrder: order, into: &failures)
            }
        }
        if let error = failures.error(closing: "container '\(configuration)'", configuration: configuration) { throw error }
    }

    /// Marks the container closed and hands back what it built (in order) and
    /// its living children; nil when it was already closed.
    private func beginClosing() -> (builtOrder: [Int], children: [Container])? {
        creationLock.withLock {
            guard !closed else { return nil }
            closed = true
            fh_flag_raise(closedFlag)
            ResolutionContext.containerClosed(self)      // a factory of a resolve on this thread closed it
            defer { builtOrder = []; children = [] }
            return (builtOrder, children.compactMap(\.container))
        }
    }

    /// Closes the container's own part, its children being closed: its open
    /// scopes (newest first), then its singletons, newest first.
    private func finishClosing(builtOrder order: [Int], into failures: inout DisposalFailures) {
        for scope in scopesOpenNow().reversed() { scope.closeCollecting(&failures) }
        if !order.isEmpty { dispose(builtOrder: order, into: &failures) }
        disposer?.containerDidClose(self)
    }

    private func dispose(builtOrder order: [Int], into failures: inout DisposalFailures) {
        let bySlot = Dictionary(plan.registrations.filter { $0.slot >= 0 }.map { ($0.slot, $0.registration) },
                                uniquingKeysWith: { first, _ in first })
        for slot in order.reversed() {
            guard slot < slots.count, let instance = slots[slot].take() else { continue }
            failures.dispose(instance, registration: bySlot[slot], disposer: disposer)
        }
    }

    /// Keeps singleton `value`, just built, in `slot` (called under the
    /// creation lock) — unless its factory closed the container meanwhile:
    /// then it is closed at once and the resolve fails, as any after the close.
    func keepBuilt(_ value: Any, slot: Int, registration: Registration) throws {
        guard closed else {
            slots[slot].store(value)
            builtOrder.append(slot)
            return
        }
        var failures = DisposalFailures()
        failures.dispose(value, registration: registration, disposer: disposer)
        throw failures.error(closing: "\(registration.key), built as its container closed", configuration: configuration)
            ?? RegistryError(.containerClosed, "cannot keep \(registration.key): container '\(configuration)' was closed while it was built")
    }

    /// Throws if the container is closed (called under the creation lock):
    /// `doing` is what cannot be done ("build Cache", "open scope 'session'").
    func checkOpen(_ doing: @autoclosure () -> String) throws {
        if closed {
            throw RegistryError(.containerClosed, "cannot \(doing()): container '\(configuration)' is closed")
        }
    }

    /// A provider is refused when its container is closed, as a resolve
    /// is: handing one out would promise instances the container will not build.
    func refuseProviderIfClosed(_ key: @autoclosure () -> String) throws {
        if isClosedForResolving {
            throw RegistryError(.containerClosed, "cannot make a provider of \(key()): container '\(configuration)' is closed")
        }
    }

    // MARK: Scopes

    /// Opens an instance of custom scope `name`. A nested scope (`screen` in
    /// `session`) needs its parent open: it joins the newest one.
    ///
    /// - Throws: `RegistryError`: `.unknownScope` for a scope never declared, `.scopeNotOpen` when its parent scope is not open, `.containerClosed` when the container is closed.
    public func openScope(_ name: String) throws -> ScopeHandle {
        guard let declaration = plan.scopes[name] else { throw unknownScope(name) }
        try creationLock.withLock { try checkOpen("open scope '\(name)'") }
        var parent: ScopeHandle?
        if let parentName = declaration.parent {
            switch scopeChoice(named: parentName) {
            case .found(let open):
                parent = open
            case .none:
                throw RegistryError(.scopeNotOpen,
                                    "cannot open scope '\(name)': it nests in '\(parentName)', and no '\(parentName)' scope is open",
                                    configuration: configuration)
            case .outsideCurrent(let current):
                throw RegistryError(.scopeNotOpen,
                                    "cannot open scope '\(name)': it nests in '\(parentName)', and the current scope "
                                    + "(withCurrent) is a '\(current.name)' scope not inside one", configuration: configuration)
            case .several:
                throw RegistryError(.scopeAmbiguous,
                                    "cannot open scope '\(name)': it nests in '\(parentName)', and several '\(parentName)' scopes are open",
                                    configuration: configuration,
                                    details: ["open it from the one it belongs in: \(parentName).openScope(\"\(name)\"), "
                                              + "or inside \(parentName).withCurrent { … }"])
            }
        }
        return try open(name, parent: parent)
    }

    /// Opens a scope named `name` holding `values` (see ``ScopedValue``):
    /// resolving one of their keys in it gives the value.
    ///
    /// ```swift
    /// let scope = try container.openScope("request", with: [ScopedValue(request)])
    /// ```
    ///
    /// - Throws: `RegistryError`: as ``openScope(_:)``; `.missingRegistration` or `.invalidRegistration` for a value
    ///   whose key is not registered in that scope (then nothing is opened).
    public func openScope(_ name: String, with values: [ScopedValue]) throws -> ScopeHandle {
        let places = try plan.places(of: values, inScope: name)
        return try openScope(name).giving(places)
    }

    func open(_ name: String, parent: ScopeHandle?) throws -> ScopeHandle {
        let handle = ScopeHandle(name: name, parent: parent, container: self)
        // Listed before it is adopted: a parent closing meanwhile then closes
        // it and unlists it, instead of leaving a closed handle listed.
        // A script's is kept open until closed; Swift's handle is its life.
        let keeping = fh_scopes_stack_here() != 0
        scopeLock.withLock { openScopeList.add(handle, keeping: keeping) }
        do {
            try parent?.adopt(handle)
        } catch {
            scopeDidClose(handle)
            throw error
        }
        return handle
    }

    func unknownScope(_ name: String) -> RegistryError {
        let known = plan.scopes.keys.sorted()
        return RegistryError(.unknownScope, "no scope named '\(MessageText.oneLine(String(name.prefix(200))))' is declared" + NameSuggestion.didYouMean(name, among: known),
                             configuration: configuration,
                             details: ["declared scopes: " + MessageText.list(known)])
    }

    /// The newest open scope named `name`.
    func activeScope(named name: String) -> ScopeHandle? {
        scopeLock.withLock { openScopeList.newest(named: name) }
    }

    /// Which open scope named `name` a resolve started on the container uses.
    enum ScopeChoice {
        /// This one.
        case found(ScopeHandle)
        /// None of the name is open.
        case none
        /// ``ScopeHandle/current`` is a scope of this container not inside one of the name.
        case outsideCurrent(ScopeHandle)
        /// Several of the name are open, and the resolve did not say which.
        case several
    }

    /// The open scope named `name` a resolve started on the container uses:
    /// the current one (``ScopeHandle/withCurrent(_:)``) or the one of the
    /// name it is in; else the only one open. Of several, none — unless
    /// scopes stack on this thread (a script's, whose scopes are a stack:
    /// ``ScriptScopes``), then the newest. A server's requests each open
    /// one: "the newest" handed one request another's.
    func scopeChoice(named name: String) -> ScopeChoice {
        if let current = ScopeHandle.current, current.container === self {
            return current.enclosing(named: name).map { .found($0) } ?? .outsideCurrent(current)
        }
        guard let (newest, others) = scopeLock.withLock({ openScopeList.newestAndOthers(named: name) }) else { return .none }
        return others && fh_scopes_stack_here() == 0 ? .several : .found(newest)
    }

    /// Unlists a closed scope, wherever it is among the open ones (in any
    /// order: see ``OpenScopes``).
    func scopeDidClose(_ handle: ScopeHandle) {
        scopeLock.withLock { openScopeList.remove(handle) }
    }

    /// Unlists a scope whose handle was dropped open (it closed as it went), and counts it.
    func scopeWasDropped(_ id: ObjectIdentifier, name: String) {
        scopeLock.withLock {
            openScopeList.remove(id, name: name)
            droppedOpen += 1
        }
    }

    /// How many scopes' handles were dropped without `close()` — each was
    /// closed then, its instances released. A server counts its leaks here
    /// (a handler that threw before closing its request's scope).
    public var scopesDroppedOpen: Int { scopeLock.withLock { droppedOpen } }

    /// The names of the scopes open now, oldest first.
    public var openScopeNames: [String] { scopeLock.withLock { openScopeList.all.map(\.name) } }

    /// The scopes open now, oldest first.
    func scopesOpenNow() -> [ScopeHandle] { scopeLock.withLock { openScopeList.all } }

    // MARK: Introspection

    /// Every registration this container resolves from.
    public var registrations: [Registration] { plan.registrations.map(\.registration) }

    /// The registration a resolve of `key` uses, if any.
    public func registration(for key: ServiceKey) -> Registration? {
        plan.index.find(key).map { plan.registrations[$0].registration }
    }
}

/// A child container, held weakly by its parent.
struct WeakContainer {
    weak var container: Container?
}
