import FactoryhostSupport

/// A registration as a container uses it: its index, scope, factory, and
/// its declared dependencies resolved to indices. Immutable once made.
final class PlannedRegistration: Sendable {
    let index: Int
    let registration: Registration
    let lifetime: Scope
    let factory: AnyFactory
    /// The factory is a TypedFactory of the registered type (see `build`).
    let isTyped: Bool
    let typeID: ObjectIdentifier
    let arguments: [ArgumentSpec]
    /// Indices of declared instance dependencies (-1 where missing).
    let instanceDependencies: [Int]
    /// Indices of declared provider dependencies (-1 where missing).
    let providerDependencies: [Int]
    /// Where the container keeps the instance (singleton and weak), else -1.
    let slot: Int
    /// In a child container's plan: a registration of the parent whose
    /// instances the parent owns (singleton, weak, scoped), resolved there.
    let delegatesToParent: Bool

    /// `registration` at `index` of a plan, its dependencies found with
    /// `find` (the plan's index of keys; nil: missing).
    ///
    /// - Parameter previous: one whose dependencies are the first of
    ///   `registration`'s, found already (all by instance).
    init(index: Int, registration: Registration, find: (ServiceKey) -> Int?, slot: Int = -1, delegatesToParent: Bool = false,
         extending previous: PlannedRegistration? = nil) {
        self.index = index
        self.registration = registration
        self.factory = registration.factory
        self.isTyped = registration.factory.typedID == registration.key.type.id
        self.typeID = registration.key.type.id
        self.arguments = registration.arguments
        self.lifetime = registration.scope
        self.slot = slot
        self.delegatesToParent = delegatesToParent
        var instances: [Int] = [], providers: [Int] = []
        var known = 0
        if let previous, previous.providerDependencies.isEmpty,
           previous.instanceDependencies.count <= registration.dependencies.count {
            // Its first dependencies are the previous one's (a collector given more contributions).
            instances = previous.instanceDependencies
            known = instances.count
        }
        for dependency in registration.dependencies[known...] {
            if dependency.kind == .instance {
                instances.append(find(dependency.key) ?? -1)
            } else {
                providers.append(find(dependency.key) ?? -1)
            }
        }
        self.instanceDependencies = instances
        self.providerDependencies = providers
    }

    var key: ServiceKey { registration.key }
    var name: String { registration.key.description }
}

/// A configuration flattened along its `extends` chain — parents first,
/// overrides applied — and frozen. Containers share their configuration's
/// plan; structural problems found while flattening are kept for validation.
@usableFromInline
final class ContainerPlan: Sendable {
    let configuration: String
    let registrations: [PlannedRegistration]
    @usableFromInline let index: KeyTable
    /// What resolution reads, without reference counting.
    let hot: HotTable
    /// The declared scopes, and which nest in which.
    let scopeRules: ScopeRules
    var scopes: [String: ScopeDeclaration] { scopeRules.scopes }
    let eagerSingletons: [Int]
    /// Unknown or cyclic parents, duplicates, overrides of nothing.
    let problems: [RegistryError]

    /// `resolvable: false` plans for validation only, without the hot
    /// table resolution reads (a plan that is not kept is never resolved from).
    convenience init(configuration name: String, configurations: [String: Configuration],
                     scopes: [String: ScopeDeclaration], resolvable: Bool = true) {
        var problems: [RegistryError] = []

        // The chain from the root configuration down to this one.
        var chain: [Configuration] = []
        var seen: Set<String> = []
        var cursor: String? = name
        while let current = cursor {
            guard let configuration = configurations[current] else {
                let child = chain.last
                problems.append(RegistryError(
                    .unknownConfiguration, "configuration '\(child?.name ?? name)' extends '\(current)', which is not defined"
                        + NameSuggestion.didYouMean(current, among: configurations.keys.filter { $0 != child?.name }),
                    configuration: name, details: child.map { ["defined at \($0.origin)"] } ?? [], origin: child?.origin))
                break
            }
            if seen.contains(current) {
                let names = chain.map(\.name) + [current]
                problems.append(RegistryError(
                    .configurationCycle, "configurations extend each other in a cycle: " + names.joined(separator: " → "),
                    configuration: name, details: chain.map { "'\($0.name)' defined at \($0.origin)" }, origin: configuration.origin))
                break
            }
            seen.insert(current)
            chain.append(configuration)
            cursor = configuration.parent
        }

        // Parents first; a child's registration of an inherited key must override it.
        var flattened: [Registration] = []
        let positions: [ServiceKey: Int] = [:]
        if chain.count == 1, let only = chain.first, only.parent == nil {
            // Nothing inherited: a configuration's own keys are unique (and
            // none can override anything), so no index of keys is needed.
            flattened = only.ordered
            for registration in flattened where registration.overrides {
                problems.append(RegistryError(
                    .nothingToOverride, "\(registration.key) says it overrides, but there is nothing to override",
                    configuration: name, details: ["at \(registration.origin): '\(only.name)' extends no configuration"],
                    origin: registration.origin))
            }
            chain = []
        }
        var flattening = Flattening(flattened: flattened, positions: positions, problems: problems)
        for configuration in chain.reversed() { Self.merge(configuration, into: &flattening, plan: name) }
        self.init(configuration: name, flattening: flattening, scopes: scopes, resolvable: resolvable)
    }

    /// What flattening a chain has made so far: the registrations, parents
    /// first, where each key is, and the problems met.
    struct Flattening {
        var flattened: [Registration] = []
        var positions: [ServiceKey: Int] = [:]
        var problems: [RegistryError] = []
    }

    /// Adds `configuration`'s own registrations to a flattening of its
    /// parents (for plan `plan`): an override replaces what it overrides, a
    /// refinement refines it, anything else registered twice is a problem.
    ///
    /// - Returns: the keys whose registrations it replaced (overrode or refined).
    @discardableResult
    static func merge(_ configuration: Configuration, into state: inout Flattening, plan: String) -> [ServiceKey] {
        var replaced: [ServiceKey] = []
        for registration in configuration.ordered {
            if let existing = state.positions[registration.key] {
                let first = state.flattened[existing]
                if registration.refinement != nil {
                    // A change of parameters keeps what the first is (a contribution stays one).
                    do {
                        state.flattened[existing] = try first.refined(by: registration, configuration: plan)
                        replaced.append(registration.key)
                    } catch let error as RegistryError {
                        state.problems.append(error)
                    } catch {
                        state.problems.append(RegistryError(.invalidRegistration, "\(error)", configuration: plan, origin: registration.origin))
                    }
                } else if first.contribution != registration.contribution {
                    // A contribution overridden by a plain registration (or one to
                    // another collection) would leave its collection silently.
                    let what: (Registration) -> String = { r in
                        r.contribution.map { "a contribution to \($0.collectionKey(for: r.key.type)) (\($0))" } ?? "a plain registration"
                    }
                    state.problems.append(RegistryError(
                        .invalidRegistration,
                        "\(registration.key) is \(what(first)) in '\(first.configuration)' and \(what(registration)) in '\(registration.configuration)'",
                        configuration: plan,
                        details: ["first at \(first.origin)", "again at \(registration.origin)",
                                  registration.overrides ? "an override keeps what the first is: say into = … as it does"
                                                         : "give one of them another name"],
                        origin: registration.origin))
                } else if registration.overrides {
                    state.flattened[existing] = registration
                    replaced.append(registration.key)
                } else {
                    state.problems.append(RegistryError(
                        .duplicateRegistration,
                        "\(registration.key) is registered by '\(first.configuration)' and again by '\(registration.configuration)'",
                        configuration: plan,
                        details: ["first at \(first.origin)",
                                  "again at \(registration.origin) (say it overrides to replace the first)"],
                        origin: registration.origin))
                }
            } else {
                if registration.overrides {
                    let why = configuration.parent.map { "'\($0)' has no \(registration.key)" }
                        ?? "'\(configuration.name)' extends no configuration"
                    state.problems.append(RegistryError(
                        .nothingToOverride, "\(registration.key) says it overrides, but there is nothing to override",
                        configuration: plan, details: ["at \(registration.origin): \(why)"], origin: registration.origin))
                }
                state.positions[registration.key] = state.flattened.count
                state.flattened.append(registration)
            }
        }
        return replaced
    }

    /// A plan of a flattening already made (its chain merged).
    init(configuration name: String, flattening: Flattening, scopes: [String: ScopeDeclaration], resolvable: Bool,
         rules: ScopeRules? = nil) {
        configuration = name
        scopeRules = rules ?? ScopeRules(scopes)
        var flattened = flattening.flattened
        Self.addCollectors(to: &flattened)
        let laid = Self.lay(flattened) { _, _ in false }
        self.registrations = laid.planned
        self.index = laid.index
        self.hot = resolvable ? HotTable(laid.planned, keys: laid.index) : HotTable(unresolvable: laid.index)
        self.eagerSingletons = laid.eager
        self.problems = flattening.problems
    }

    /// `flattened` as planned registrations: dependencies as indices, slots
    /// for what the container keeps, eager singletons — except for those
    /// `delegated` says the parent owns (a child's plan).
    private static func lay(_ flattened: [Registration], delegated: (Int, Registration) -> Bool)
        -> (planned: [PlannedRegistration], index: KeyTable, eager: [Int]) {
        let index = KeyTable(flattened.map(\.key))
        var planned: [PlannedRegistration] = []
        planned.reserveCapacity(flattened.count)
        var slots = 0
        var eager: [Int] = []
        for (position, registration) in flattened.enumerated() {
            let delegates = delegated(position, registration)
            var slot = -1
            if !delegates {
                if registration.scope == .singleton || registration.scope == .weak {
                    slot = slots
                    slots += 1
                }
                if registration.scope == .singleton && registration.eager { eager.append(position) }
            }
            planned.append(PlannedRegistration(index: position, registration: registration, find: { index.find($0) },
                                               slot: slot, delegatesToParent: delegates))
        }
        return (planned, index, eager)
    }

    /// The plan of a child container: `parent`'s registrations, with
    /// `registrations` replacing those of the same key and adding the rest.
    /// What the parent owns (its singletons, weak and scoped instances) is
    /// resolved by the parent — built with the parent's registrations, so it
    /// never captures one of the child's; the rest is built in the child,
    /// with the child's registrations.
    init(childOf parent: ContainerPlan, adding registrations: [Registration]) throws {
        configuration = parent.configuration
        scopeRules = parent.scopeRules
        var flattened = parent.registrations.map(\.registration).filter { !Self.isCollector($0) }
        var inherited = Array(repeating: true, count: flattened.count)
        var positions: [ServiceKey: Int] = [:]
        for (index, registration) in flattened.enumerated() { positions[registration.key] = index }
        var added: Set<ServiceKey> = []
        for registration in registrations {
            guard added.insert(registration.key).inserted else {
                throw RegistryError(.duplicateRegistration, "\(registration.key) is registered twice in one child container",
                                    configuration: parent.configuration, details: ["again at \(registration.origin)"],
                                    origin: registration.origin)
            }
            if let existing = positions[registration.key] {
                flattened[existing] = try flattened[existing].refined(by: registration, configuration: parent.configuration)
                inherited[existing] = false
            } else if registration.refinement != nil {
                throw RegistryError(.nothingToOverride, "\(registration.key) changes parameters, but the container has no \(registration.key)",
                                    configuration: parent.configuration, details: ["at \(registration.origin)"], origin: registration.origin)
            } else {
                positions[registration.key] = flattened.count
                flattened.append(registration)
                inherited.append(false)
            }
        }
        let ownCount = flattened.count
        Self.addCollectors(to: &flattened)
        let laid = Self.lay(flattened) { position, registration in
            position < ownCount && inherited[position] && registration.scope != .transient && registration.scope != .graph
        }
        self.registrations = laid.planned
        self.index = laid.index
        self.hot = HotTable(laid.planned, keys: laid.index)
        self.eagerSingletons = laid.eager
        self.problems = []
    }

    /// Whether `registration` is one ``addCollectors(to:)`` made.
    static func isCollector(_ registration: Registration) -> Bool {
        guard registration.contribution == nil, let first = registration.key.type.name.utf8.first,
              first == UInt8(ascii: "[") || first == UInt8(ascii: "{") else { return false }
        return CollectionIdentities.shared.collectionKind(registration.key.type.id) != nil
            && registration.factory is UntypedFactory
    }

    /// Multi-bindings: each collection that registrations here contribute to
    /// — or that one depends on, empty then — gets a registration depending
    /// on every contribution, in order, unless the configuration registers
    /// the collection's key itself.
    static func addCollectors(to flattened: inout [Registration]) {
        var contributions: [ServiceKey: [Registration]] = [:]
        var order: [ServiceKey] = []
        var kinds: [ServiceKey: (isMap: Bool, origin: Origin)] = [:]
        for registration in flattened {
            if let contribution = registration.contribution {
                let key = contribution.collectionKey(for: registration.key.type)
                if contributions[key] == nil { order.append(key) }
                contributions[key, default: []].append(registration)
                if case .map = contribution { kinds[key] = (true, registration.origin) } else { kinds[key] = (false, registration.origin) }
            }
            for dependency in registration.dependencies {
                // (A collection type's name is "[T]" or "{T}": the lock only for those.)
                guard let first = dependency.key.type.name.utf8.first, first == UInt8(ascii: "[") || first == UInt8(ascii: "{"),
                      kinds[dependency.key] == nil,
                      let isMap = CollectionIdentities.shared.collectionKind(dependency.key.type.id) else { continue }
                order.append(dependency.key)
                kinds[dependency.key] = (isMap, registration.origin)
            }
        }
        guard !order.isEmpty else { return }
        let registered = Set(flattened.map(\.key))
        var added: Set<ServiceKey> = []
        for key in order where !registered.contains(key) && added.insert(key).inserted {
            let kind = kinds[key] ?? (false, Origin(file: "?", line: 0))
            flattened.append(.collector(key, contributions: contributions[key] ?? [], isMap: kind.isMap, origin: kind.origin))
        }
    }

    /// Whether scope `inner` is `outer` or nested (at any depth) inside it.
    func scope(_ inner: String, isWithin outer: String) -> Bool { scopeRules.scope(inner, isWithin: outer) }

    /// Whether an instance of `holder` may keep an instance of custom scope
    /// `scope` for its whole life. Nil if it may; else why not.
    func captiveReason(holder: PlannedRegistration, scope: String) -> String? {
        scopeRules.captiveReason(holder: holder, scope: scope)
    }
}
