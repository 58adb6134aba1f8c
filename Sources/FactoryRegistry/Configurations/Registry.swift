import FactoryhostSupport
/// All configurations and custom scopes of one application: where
/// registrations are made, validated, inspected, and turned into containers.
///
/// ```swift
/// let registry = Registry()
/// try registry.declareScope("session")
/// try registry.declareScope("screen", in: "session")
/// let app = try registry.defineConfiguration("app")
/// try app.register(Logger.self, scope: .singleton) { _ in Logger() }
/// let problems = registry.validate()              // every problem, nothing built
/// let container = try registry.container("app")   // one live instance of `app`
/// ```
///
/// Thread-safe: registering, validating and creating containers may happen
/// from any thread. A container sees its configuration as it was when the
/// container was created; registering afterwards affects only new containers.
// @unchecked Sendable: `configurationsByName`, `configurationOrder`, `scopeDeclarations`, `plans` and
// `generation` are read and written only under `lock` (also from Configuration and Snapshot;
// `invalidatePlans()` is called with it held).
public final class Registry: @unchecked Sendable {
    let lock = Lock(recursive: true)
    var configurationsByName: [String: Configuration] = [:]
    var configurationOrder: [String] = []
    var scopeDeclarations: [String: ScopeDeclaration] = [:]
    private var plans: [String: ContainerPlan] = [:]
    /// Counts changes to the declarations (see ``snapshot()``).
    var generation = 0

    /// An empty registry: no configurations, no scopes.
    public init() {}

    // MARK: Configurations

    /// Defines a configuration, optionally extending another (which may be
    /// defined later). Defining a name twice is an error naming both origins.
    ///
    /// - Throws: `RegistryError`: `.invalidRegistration` for an empty name, `.duplicateConfiguration` for one defined already.
    @discardableResult
    public func defineConfiguration(_ name: String, extends parent: String? = nil,
                                    file: String = #fileID, line: Int = #line) throws -> Configuration {
        try defineConfiguration(name, extends: parent, origin: Origin(file: file, line: line))
    }

    /// Defines a configuration with an explicit origin (used by script layers).
    ///
    /// - Throws: `RegistryError`: `.invalidRegistration` for an empty name, `.duplicateConfiguration` for one defined already.
    @discardableResult
    public func defineConfiguration(_ name: String, extends parent: String?, origin: Origin) throws -> Configuration {
        guard !name.isEmpty else {
            throw RegistryError(.invalidRegistration, "a configuration needs a name", origin: origin)
        }
        return try lock.withLock {
            if let existing = configurationsByName[name] {
                throw RegistryError(.duplicateConfiguration, "configuration '\(name)' is defined twice",
                                    details: ["first at \(existing.origin)", "again at \(origin)"], origin: origin)
            }
            let configuration = Configuration(name: name, parent: parent, origin: origin, registry: self)
            configurationsByName[name] = configuration
            configurationOrder.append(name)
            invalidatePlans()
            return configuration
        }
    }

    /// The configuration named `name`, if defined.
    public func configuration(_ name: String) -> Configuration? {
        lock.withLock { configurationsByName[name] }
    }

    /// Every configuration's name, in definition order.
    public var configurationNames: [String] { lock.withLock { configurationOrder } }

    // MARK: Scopes

    /// Declares a custom scope, optionally nested in another declared one.
    ///
    /// - Throws: `RegistryError` (`.invalidRegistration`) for a reserved or empty name, or a scope declared again with another parent.
    public func declareScope(_ name: String, in parent: String? = nil, file: String = #fileID, line: Int = #line) throws {
        try declareScope(ScopeDeclaration(name: name, parent: parent, origin: Origin(file: file, line: line)))
    }

    /// Declares a custom scope (used by script layers, with the script's origin).
    ///
    /// - Throws: `RegistryError` (`.invalidRegistration`) for a reserved or empty name, or a scope declared again with another parent.
    public func declareScope(_ declaration: ScopeDeclaration) throws {
        let reserved = ["transient", "graph", "singleton", "weak"]
        guard !reserved.contains(declaration.name), !declaration.name.isEmpty else {
            throw RegistryError(.invalidRegistration, "'\(declaration.name)' cannot name a custom scope",
                                details: ["declared at \(declaration.origin)"], origin: declaration.origin)
        }
        try lock.withLock {
            if let existing = scopeDeclarations[declaration.name] {
                // Two modules may both declare the scope they share; only a conflict is an error.
                if existing.parent == declaration.parent { return }
                func nesting(_ scope: ScopeDeclaration) -> String { scope.parent.map { "within '\($0)'" } ?? "at the top (no within)" }
                throw RegistryError(.invalidRegistration,
                                    "scope '\(declaration.name)' is declared twice, differently: \(nesting(existing)) and \(nesting(declaration))",
                                    details: ["first at \(existing.origin): \(nesting(existing))",
                                              "again at \(declaration.origin): \(nesting(declaration))",
                                              "declare it the same way everywhere (an identical declaration is fine)"],
                                    origin: declaration.origin)
            }
            if let parent = declaration.parent {
                guard scopeDeclarations[parent] != nil else {
                    throw RegistryError(.unknownScope, "scope '\(declaration.name)' nests in '\(parent)', which is not declared"
                                        + NameSuggestion.didYouMean(parent, among: scopeDeclarations.keys),
                                        details: ["declared at \(declaration.origin)"], origin: declaration.origin)
                }
            }
            scopeDeclarations[declaration.name] = declaration
            invalidatePlans()
        }
    }

    /// Every declared custom scope.
    public var scopes: [ScopeDeclaration] {
        lock.withLock { scopeDeclarations.values.sorted { $0.name < $1.name } }
    }

    // MARK: Containers and plans

    /// A new container: one live instance of configuration `name`, owning
    /// its singletons. Eager singletons are built now. Throws the first
    /// structural problem of the configuration (unknown parent, duplicates).
    ///
    /// - Throws: `RegistryError`: `.unknownConfiguration`, the configuration's first structural problem (a duplicate, a bad `extends`), or what building an eager singleton threw.
    public func container(_ name: String) throws -> Container {
        try container(name, disposer: nil)
    }

    /// The same, with what closes the instances it lets go that are not
    /// ``ScopeBound`` (held weakly: see ``InstanceDisposer``).
    ///
    /// - Throws: `RegistryError`: `.unknownConfiguration`, the configuration's first structural problem (a duplicate, a bad `extends`), or what building an eager singleton threw.
    public func container(_ name: String, disposer: (any InstanceDisposer)?) throws -> Container {
        let plan = try self.plan(name)
        if let problem = plan.problems.first { throw problem }
        return try Container(plan: plan, disposer: disposer)
    }

    /// The flattened, immutable form of configuration `name` (cached until
    /// the next registration).
    ///
    /// `caching: false` builds a plan that is not kept (unless one already
    /// is), for validation only (no container may use it: it lacks the hot
    /// table): validating every configuration then holds one flattened plan
    /// at a time, not all of them — memory that grew with the square of an
    /// `extends` chain (3,000 chained configurations took 1.7 GB).
    func plan(_ name: String, caching: Bool = true) throws -> ContainerPlan {
        try lock.withLock {
            if let cached = plans[name] { return cached }
            guard configurationsByName[name] != nil else {
                throw RegistryError(.unknownConfiguration,
                                    "no configuration named '\(MessageText.oneLine(String(name.prefix(200))))'" + NameSuggestion.didYouMean(name, among: configurationOrder),
                                    details: ["defined: " + MessageText.list(configurationOrder)])
            }
            let plan = ContainerPlan(configuration: name, configurations: configurationsByName, scopes: scopeDeclarations, resolvable: caching)
            if caching { plans[name] = plan }
            return plan
        }
    }

    /// How many flattened plans are kept now (for tests).
    var cachedPlanCount: Int { lock.withLock { plans.count } }

    func invalidatePlans() {
        generation &+= 1
        plans.removeAll(keepingCapacity: true)
    }

    /// How many registrations configuration `name` has, inherited ones
    /// included (each key once, as a container sees them), without
    /// flattening it into a plan. Along an unknown or cyclic parent it
    /// counts what it reached, as the plan does.
    ///
    /// ```swift
    /// let count = try registry.registrationCount(in: "app-tests")
    /// ```
    ///
    /// - Throws: `RegistryError` (`.unknownConfiguration`) when no configuration is named `name`.
    public func registrationCount(in name: String) throws -> Int {
        try lock.withLock {
            guard var current = configurationsByName[name] else {
                throw RegistryError(.unknownConfiguration,
                                    "no configuration named '\(MessageText.oneLine(String(name.prefix(200))))'" + NameSuggestion.didYouMean(name, among: configurationOrder))
            }
            guard current.parent != nil else { return current.ordered.count }   // keys are unique within one
            var keys: Set<ServiceKey> = []
            var seen: Set<String> = [name]
            while true {
                for registration in current.ordered { keys.insert(registration.key) }
                guard let parent = current.parent, !seen.contains(parent),
                      let next = configurationsByName[parent] else { break }
                seen.insert(parent)
                current = next
            }
            return keys.count
        }
    }

    /// Every registration of configuration `name`, inherited ones included,
    /// as a container would see them.
    ///
    /// - Throws: `RegistryError` (`.unknownConfiguration`) when no configuration is named `name`.
    public func registrations(in name: String) throws -> [Registration] {
        try plan(name, caching: false).registrations.map(\.registration)
    }
}
