/// What validating one configuration found, kept so that a configuration
/// extending it is validated from it, looking only at what it adds and
/// replaces: a chain of 10,000 `extends` costs its length, where planning
/// each configuration whole cost the square of it (4,000 took 3.4 s to
/// check, 10,000 over 60 s).
///
/// That holds while nothing it inherits can change: what it adds is not a
/// key something inherited was missing, nor a collection's contribution;
/// what it overrides keeps its lifetime and arguments, depends only on what
/// comes before it in the dependency order (so it closes no cycle), and
/// changes neither the scopes a holder reaches through it nor a problem
/// that names it. Anything else is validated whole, as one by one.
///
/// The problems are those ``Validator`` finds for the configuration's whole
/// plan, in the same order — `IncrementalValidationTests` compares the two.
struct ConfigurationValidation {
    /// The registrations, parents first, and the problems met flattening them.
    private(set) var flattening: ContainerPlan.Flattening
    private let rules: ScopeRules
    /// As a plan has them (collection collectors included), each at its index.
    private var registrations: [PlannedRegistration]
    private var indexByKey: [ServiceKey: Int]
    /// Each registration's place in the dependency order (above all it
    /// depends on); nil once there is a cycle.
    private var ranks: [Int32]?
    /// Made when first needed, then extended.
    private var reached: ScopesReached?
    /// Made at the first missing key, then extended.
    private var keys: NameSuggestion.Keys?
    /// Each key nothing registers → registrations that depended on it.
    private var missing: [ServiceKey: [Int]]
    /// Each registration's own problems, in the order of the registrations.
    private var declared: [(node: Int, problems: [RegistryError])]
    private var cycles: [RegistryError]
    /// Each holder's captive problems, in the order of the registrations.
    private var captives: [(node: Int, problems: [RegistryError])]
    /// The configuration this is the validation of (the problems kept say
    /// where they were found: they are relabelled when given out, not at
    /// each configuration they are carried through).
    private var name: String
    /// How many problems there are.
    private(set) var count = 0
    /// Whether it stopped looking past its budget of problems: then it has
    /// only some, and it must not be extended.
    private(set) var isTruncated = false

    /// Up to `limit` problems, as ``Validator/problems(structural:)`` orders them.
    func problems(limit: Int) -> [RegistryError] {
        var problems: [RegistryError] = []
        func add(_ more: [RegistryError]) {
            for problem in more.prefix(limit - problems.count) {
                var problem = problem
                problem.configuration = name
                problems.append(problem)
            }
        }
        add(flattening.problems)
        for (_, found) in declared where problems.count < limit { add(found) }
        add(cycles)
        for (_, found) in captives where problems.count < limit { add(found) }
        return problems
    }

    /// The validation of configuration `name`'s whole `flattening`, which
    /// stops looking once it has found `budget` problems.
    init(_ name: String, flattening: ContainerPlan.Flattening, rules: ScopeRules, budget: Int = .max) {
        let plan = ContainerPlan(configuration: name, flattening: flattening, scopes: rules.scopes, resolvable: false, rules: rules)
        let validator = Validator(plan: plan)
        var keys: NameSuggestion.Keys?
        var count = flattening.problems.count
        var declared: [(node: Int, problems: [RegistryError])] = []
        var missing: [ServiceKey: [Int]] = [:]
        var indexByKey: [ServiceKey: Int] = [:]
        indexByKey.reserveCapacity(plan.registrations.count)
        for planned in plan.registrations {
            indexByKey[planned.key] = planned.index
            guard count < budget else { continue }
            let found = validator.declarationProblems(planned, keys: &keys)
            if !found.isEmpty { declared.append((planned.index, found)) }
            count += found.count
        }
        for planned in plan.registrations {
            for dependency in planned.registration.dependencies where indexByKey[dependency.key] == nil {
                missing[dependency.key, default: []].append(planned.index)
            }
        }
        var reached: ScopesReached?
        var captives: [(node: Int, problems: [RegistryError])] = []
        let cycles = count < budget ? validator.cycles(among: 0..<plan.registrations.count) : []
        count += cycles.count
        for holder in 0..<plan.registrations.count where count < budget {
            let found = validator.captives(holders: CollectionOfOne(holder), reached: &reached)
            if !found.isEmpty { captives.append((holder, found)) }
            count += found.count
        }
        self.cycles = cycles
        self.name = name
        self.count = count
        self.isTruncated = count >= budget
        var ranks: [Int32] = []
        self.ranks = cycles.isEmpty && Self.rank(plan.registrations, into: &ranks) ? ranks : nil
        self.captives = captives
        self.flattening = flattening
        self.rules = rules
        self.registrations = plan.registrations
        self.indexByKey = indexByKey
        self.reached = reached
        self.keys = keys
        self.missing = missing
        self.declared = declared
    }

    /// Makes this the validation of `configuration`, which extends the one
    /// this is: its registrations merged, and — when nothing inherited can
    /// change — its problems found from what it adds and replaces.
    /// It stops looking once it has `budget` problems.
    ///
    /// - Returns: false when something inherited could change: then only
    ///   ``flattening`` is `configuration`'s, to be validated whole.
    mutating func extend(with configuration: Configuration, budget: Int = .max) -> Bool {
        let name = configuration.name
        self.name = name
        let before = flattening.flattened.count, problemsBefore = flattening.problems.count
        let replacedKeys = ContainerPlan.merge(configuration, into: &flattening, plan: name)
        count += flattening.problems.count - problemsBefore
        defer { isTruncated = count >= budget }
        let added = flattening.flattened[before...]
        guard !added.isEmpty || !replacedKeys.isEmpty else { return true }
        for registration in added {
            // A key that was missing changes what depended on it.
            guard Self.staysApart(registration), missing[registration.key] == nil else { return false }
        }
        // An argument mismatch may name what is replaced: validated whole then (asked once, not per key).
        if !replacedKeys.isEmpty, declared.contains(where: { $0.problems.contains { $0.kind == .argumentMismatch } }) { return false }
        var replaced: [(index: Int, registration: Registration)] = []
        for key in replacedKeys {
            guard let index = indexByKey[key], let position = flattening.positions[key] else { return false }
            let registration = flattening.flattened[position], old = registrations[index]
            guard Self.staysApart(registration),
                  registration.scope == old.lifetime, registration.arguments == old.arguments,
                  ranks != nil else { return false }
            // A problem naming it would name its new place; what reaches a
            // scope through it would change what holders capture.
            switch old.lifetime {
            case .custom: guard captives.isEmpty else { return false }
            case .transient, .graph:
                if reached == nil { reached = ScopesReached(registrations) }
                guard reached?.scopes(from: index) == nil else { return false }
            case .singleton, .weak: break
            }
            replaced.append((index, registration))
        }

        let first = registrations.count
        for (offset, registration) in added.enumerated() {
            indexByKey[registration.key] = first + offset
            keys?.insert(registration.key.description)
        }
        let index = indexByKey
        for registration in added {
            registrations.append(PlannedRegistration(index: registrations.count, registration: registration, find: { index[$0] }))
        }
        var dependsOnAdded = false
        for (at, registration) in replaced {
            let planned = PlannedRegistration(index: at, registration: registration, find: { index[$0] })
            registrations[at] = planned
            if planned.instanceDependencies.contains(where: { $0 >= first }) { dependsOnAdded = true }
        }
        guard let placed = checkReplaced(replaced.map(\.index), first: first, dependsOnAdded: dependsOnAdded) else { return false }
        let validator = Validator(configuration: name, registrations: registrations, find: { index[$0] }, rules: rules)

        // Missing keys' suggestions may now name an added registration; what is replaced is looked at anew.
        var again = Set(replaced.map(\.index))
        if !added.isEmpty { for nodes in missing.values { again.formUnion(nodes) } }
        for node in again.sorted() {
            count += Self.put(validator.declarationProblems(registrations[node], keys: &keys), at: node, in: &declared)
        }
        for planned in replaced.map({ registrations[$0.index] }) + registrations[first...] {
            if planned.index >= first && count < budget {
                let found = validator.declarationProblems(planned, keys: &keys)
                if !found.isEmpty { declared.append((planned.index, found)) }
                count += found.count
            }
            for dependency in planned.registration.dependencies where index[dependency.key] == nil {
                missing[dependency.key, default: []].append(planned.index)
            }
        }
        // Nothing inherited depends on what is added but what it replaces,
        // ranked above it: new cycles start from what is added.
        let newCycles = validator.cycles(among: first..<registrations.count)
        // (A cycle that what is replaced reaches is met first from it, validated whole.)
        if dependsOnAdded && !newCycles.isEmpty { return false }
        cycles += newCycles
        count += newCycles.count
        // (Taken out while extended: extending the only copy copies nothing.)
        var extended = ranks ?? []
        ranks = nil
        if newCycles.isEmpty, Self.rank(registrations, into: &extended, placed: placed) { ranks = extended }
        reached?.extend(registrations)
        for holder in replaced.map(\.index) + Array(first..<registrations.count) where count < budget {
            count += Self.put(validator.captives(holders: CollectionOfOne(holder), reached: &reached), at: holder, in: &captives)
        }
        return true
    }

    /// Checks that the `replaced` registrations, in place, close no cycle
    /// and reach no scope they did not: each keeps its rank, and the added
    /// ones (from `first`) it depends on are ranked below it.
    ///
    /// - Returns: those added ones' ranks; nil when it may not hold.
    private mutating func checkReplaced(_ replaced: [Int], first: Int, dependsOnAdded: Bool) -> [Int: Int32]? {
        guard let ranks else { return nil }
        var placed: [Int: Int32] = [:]
        if dependsOnAdded {
            guard let below = Self.ranksBelow(replaced, first: first, in: registrations, ranks: ranks) else { return nil }
            placed = below
            reached?.extend(registrations)
        }
        for at in replaced {
            let planned = registrations[at]
            // It closes no cycle when all it depends on ranks below it.
            guard planned.instanceDependencies.allSatisfy({ $0 < 0 || ($0 < first ? ranks[$0] : placed[$0] ?? .max) < ranks[at] }) else {
                return nil
            }
            if planned.lifetime == .transient || planned.lifetime == .graph,
               Self.reachesAScope(planned, in: registrations, reached) { return nil }
        }
        return placed
    }

    /// Whether `registration` leaves collections alone: it contributes to
    /// none, is none, and depends on none (each changes a collector).
    private static func staysApart(_ registration: Registration) -> Bool {
        registration.contribution == nil && !mayBeCollection(registration.key)
            && !registration.dependencies.contains { mayBeCollection($0.key) }
    }

    /// Whether `key` may be a collection's (`[T]`, `{T}`), which a collector builds.
    private static func mayBeCollection(_ key: ServiceKey) -> Bool {
        guard let first = key.type.name.utf8.first else { return false }
        return first == UInt8(ascii: "[") || first == UInt8(ascii: "{")
    }

    /// Whether `planned` reaches a custom scope through what it depends on
    /// (`reached` describes the transient and graph-scoped ones).
    private static func reachesAScope(_ planned: PlannedRegistration, in registrations: [PlannedRegistration],
                                      _ reached: ScopesReached?) -> Bool {
        planned.instanceDependencies.contains { target in
            guard target >= 0 else { return false }
            switch registrations[target].lifetime {
            case .custom: return true
            case .transient, .graph: return reached?.scopes(from: target) != nil
            case .singleton, .weak: return false
            }
        }
    }

    /// Ranks the registrations past those `ranks` has, each above all it
    /// depends on (those in `placed` have theirs already); false on a
    /// cycle among them. Ranks may be negative: one that a replaced
    /// registration depends on is ranked below it (``ranksBelow(_:first:in:ranks:)``).
    private static func rank(_ registrations: [PlannedRegistration], into ranks: inout [Int32],
                             placed: [Int: Int32] = [:]) -> Bool {
        let notYet = Int32.min, onTheWay = Int32.min + 1
        let start = ranks.count
        ranks += [Int32](repeating: notYet, count: registrations.count - start)
        for (node, rank) in placed { ranks[node] = rank }
        for root in start..<registrations.count where ranks[root] == notYet {
            var stack: [(node: Int, next: Int)] = [(root, 0)]
            ranks[root] = onTheWay
            while let top = stack.last {
                let edges = registrations[top.node].instanceDependencies
                if top.next < edges.count {
                    stack[stack.count - 1].next += 1
                    let target = edges[top.next]
                    guard target >= 0 else { continue }
                    if ranks[target] == onTheWay { return false }
                    if ranks[target] == notYet {
                        ranks[target] = onTheWay
                        stack.append((target, 0))
                    }
                    continue
                }
                var rank: Int32 = 0
                for target in edges where target >= 0 { rank = max(rank, ranks[target] + 1) }
                ranks[top.node] = rank
                stack.removeLast()
            }
        }
        return true
    }

    /// Ranks for the added registrations (from `first`) that the replaced
    /// ones depend on, directly or through added ones: each below all that
    /// depends on it and above what it depends on, so that what is replaced
    /// keeps its rank and what depended on it stays above it. nil when
    /// there is none: a cycle among them, or one that would have to be
    /// both below and above.
    ///
    /// (A configuration that overrides a registration to depend on one it
    /// adds — a test's double with a fixture of its own — is then validated
    /// from what it changes; 4,000 of them in a chain took 3 s, whole.)
    private static func ranksBelow(_ replaced: [Int], first: Int, in registrations: [PlannedRegistration],
                                   ranks: [Int32]) -> [Int: Int32]? {
        // The added ones reached from what is replaced through added ones, and how many of those depend on each.
        var dependents: [Int: Int] = [:]
        var stack = replaced
        var seen = Set(replaced)
        while let node = stack.popLast() {
            for target in registrations[node].instanceDependencies where target >= first {
                dependents[target, default: 0] += 1
                if seen.insert(target).inserted { stack.append(target) }
            }
        }
        // From what is replaced down: each one ranked once all that depends on it is.
        var below: [Int: Int32] = [:]
        var ready = replaced.map { (node: $0, rank: ranks[$0]) }
        while let (node, rank) = ready.popLast().map({ ($0.node, $0.rank) }) {
            guard rank > Int32.min + 2 else { return nil }
            for target in registrations[node].instanceDependencies where target >= first {
                below[target] = min(below[target] ?? .max, rank - 1)
                let left = (dependents[target] ?? 0) - 1
                dependents[target] = left
                if left == 0, let ranked = below[target] { ready.append((target, ranked)) }
            }
        }
        // One still waiting for a dependent is on a cycle.
        guard dependents.values.allSatisfy({ $0 == 0 }) else { return nil }
        for (node, rank) in below {
            for target in registrations[node].instanceDependencies where target >= 0 && target < first {
                guard ranks[target] < rank else { return nil }
            }
        }
        return below
    }

    /// Sets `node`'s problems in `list` (ordered by node): replaced,
    /// inserted in order, or removed when there are none.
    ///
    /// - Returns: how many more problems the list has.
    @discardableResult
    private static func put(_ problems: [RegistryError], at node: Int, in list: inout [(node: Int, problems: [RegistryError])]) -> Int {
        var low = 0, high = list.count
        while low < high {
            let middle = (low + high) / 2
            if list[middle].node < node { low = middle + 1 } else { high = middle }
        }
        let present = low < list.count && list[low].node == node
        let delta = problems.count - (present ? list[low].problems.count : 0)
        switch (present, problems.isEmpty) {
        case (true, true): list.remove(at: low)
        case (true, false): list[low].problems = problems
        case (false, false): list.insert((node, problems), at: low)
        case (false, true): break
        }
        return delta
    }
}
