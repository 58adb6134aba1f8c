/// What validating one configuration found, kept so that a configuration
/// extending it is validated from it, looking only at what it adds and
/// replaces: a chain of 10,000 `extends` costs its length, where planning
/// each configuration whole cost the square of it (4,000 took 3.4 s to
/// check, 10,000 over 60 s).
///
/// What it replaces keeps its place in the dependency order (its rank), so
/// cycles are found from what is added; the added ones it depends on are
/// ranked below it. What it changes is looked at anew: its own problems and
/// its dependents' (an arguments problem names it); the scopes reached
/// through it, going up only while they change; the captives of holders
/// above it when it gives them scopes, before or now. A configuration is
/// validated whole, as one by one, only where that cannot hold: what it
/// adds is a key something inherited was missing, or a collection it
/// registers itself; what it replaces is on a cycle or reaches one (a cycle
/// is reported as first met), or would close one. A contribution replaces
/// its collection's collector with one collecting it too
/// (``CollectorChanges``); a collection first named adds one.
///
/// The problems are those ``Validator`` finds for the configuration's whole
/// plan, in the same order — `IncrementalValidationTests` compares the two.
struct ConfigurationValidation {
    /// The registrations, parents first, and the problems met flattening them.
    private(set) var flattening: ContainerPlan.Flattening
    private let rules: ScopeRules
    /// As a plan has them (collection collectors included), each at its index.
    private var registrations: [PlannedRegistration]
    private var indexByKey: [ServiceKey: Int]     // (with `ranks`, made at the first extension)
    /// Each registration's place in the dependency order (above all it
    /// depends on); `Int32.max` for one on a cycle or reaching one
    /// (``onACycle``), whose dependencies must not change: a cycle is
    /// reported as first met.
    private var ranks: [Int32]
    /// Made when first needed, then extended.
    private var reached: ScopesReached?
    /// What holders of each lifetime reach, kept from level to level (what
    /// a level replaces, and what reaches it, forgotten).
    private var routes: [Scope: CaptiveRoutes]
    /// Each registration's dependents (by instance or provider), perhaps
    /// with some that no longer depend on it: asked, they are checked.
    /// Empty until the first ``extend(with:budget:)``.
    private var dependents: [[Int32]]
    /// Made at the first missing key, then extended.
    private var keys: NameSuggestion.Keys?
    /// The collections' collectors, and what they collect: made at the
    /// first extension that names a collection.
    private var collectors: CollectorChanges?
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
        for planned in plan.registrations {
            guard count < budget else { break }
            let found = validator.declarationProblems(planned, keys: &keys)
            if !found.isEmpty { declared.append((planned.index, found)) }
            count += found.count
        }
        for planned in plan.registrations {
            for dependency in planned.registration.dependencies where plan.index.find(dependency.key) == nil {
                missing[dependency.key, default: []].append(planned.index)
            }
        }
        var reached: ScopesReached?
        var routes: [Scope: CaptiveRoutes] = [:]
        var captives: [(node: Int, problems: [RegistryError])] = []
        let cycles = count < budget ? validator.cycles(among: 0..<plan.registrations.count) : []
        count += cycles.count
        for holder in 0..<plan.registrations.count where count < budget {
            let found = validator.captives(holders: CollectionOfOne(holder), reached: &reached, routes: &routes)
            if !found.isEmpty { captives.append((holder, found)) }
            count += found.count
        }
        self.cycles = cycles
        self.name = name
        self.count = count
        self.isTruncated = count >= budget
        self.ranks = []
        self.captives = captives
        self.flattening = flattening
        self.rules = rules
        self.registrations = plan.registrations
        self.indexByKey = [:]
        self.reached = reached
        self.routes = routes
        self.dependents = []
        self.keys = keys
        self.collectors = nil
        self.missing = missing
        self.declared = declared
        detachRoutes()
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
        let merged = flattening.flattened[before...]
        guard !merged.isEmpty || !replacedKeys.isEmpty else { return true }
        if ranks.count < registrations.count {
            // Made at the first extension: validating a configuration nothing
            // extends needs neither (100,000 registrations: ~90 B each, at check's peak).
            indexByKey.reserveCapacity(registrations.count)
            for planned in registrations { indexByKey[planned.key] = planned.index }
            Self.rank(registrations, into: &ranks)
        }
        for registration in merged {
            // A key that was missing changes what depended on it.
            guard !Self.registersACollection(registration), missing[registration.key] == nil else { return false }
        }
        var replaced: [(index: Int, registration: Registration)] = []
        for key in replacedKeys {
            guard let index = indexByKey[key], let position = flattening.positions[key] else { return false }
            let registration = flattening.flattened[position]
            guard !Self.registersACollection(registration) else { return false }
            replaced.append((index, registration))
        }
        // A contribution, or a dependency on a collection, replaces a collector or adds one.
        let first = registrations.count
        var added = merged
        var collectorNodes: Set<Int> = []
        if merged.contains(where: Self.namesACollection) || replaced.contains(where: { Self.namesACollection($0.registration) })
            || replaced.contains(where: { Self.namesACollection(registrations[$0.index].registration) }) {
            if collectors == nil {
                // Made at the first collection an extension names (collectors are the registrations no configuration has).
                let positions = flattening.positions
                collectors = CollectorChanges(planned: registrations, isCollector: { positions[$0.key] == nil })
            }
            guard let collecting = collectors?.extend(
                replaced: replaced.sorted { $0.index < $1.index }.map { (old: registrations[$0.index].registration, new: $0.registration) },
                added: merged, first: first, registered: { indexByKey[$0] != nil })
            else { return false }
            replaced += collecting.replaced
            added += collecting.added
            // A collector has no problems of its own (its contributions take no
            // arguments, and are there): its dependencies are not looked at again.
            collectorNodes = Set(collecting.replaced.map(\.index))
            collectorNodes.formUnion(first + merged.count..<first + added.count)
        }
        // What each replaced one gave a holder's captive, before.
        var gave: [Int: Set<String>?] = [:]
        for (index, _) in replaced { gave[index] = scopesGiven(by: index) }

        for (offset, registration) in added.enumerated() {
            indexByKey[registration.key] = first + offset
            keys?.insert(registration.key.description)
        }
        let index = indexByKey
        for registration in added {
            registrations.append(PlannedRegistration(index: registrations.count, registration: registration, find: { index[$0] }))
        }
        var dependsOnAdded = false
        var previous: [Int: PlannedRegistration] = [:]
        for (at, registration) in replaced {
            let collects = collectorNodes.contains(at)
            let planned = PlannedRegistration(index: at, registration: registration, find: { index[$0] },
                                              extending: collects ? registrations[at] : nil)
            previous[at] = registrations[at]
            registrations[at] = planned
            if planned.instanceDependencies.contains(where: { $0 >= first }) { dependsOnAdded = true }
        }
        if dependents.count < first {
            // Made at the first extension: checking a configuration alone needs none (100,000 registrations: 230 B each).
            dependents = Self.dependents(of: registrations)
        } else {
            dependents += [[Int32]](repeating: [], count: registrations.count - first)
            // What a replaced one depended on before is noted already: a
            // collector's new contributions follow its old ones (noting them all made a chain's lists quadratic).
            func note(_ node: Int) {
                func add(_ targets: [Int], past old: [Int]) {
                    var common = 0
                    while common < min(targets.count, old.count) && targets[common] == old[common] { common += 1 }
                    for target in targets[common...] where target >= 0 { dependents[target].append(Int32(node)) }
                }
                add(registrations[node].instanceDependencies, past: previous[node]?.instanceDependencies ?? [])
                add(registrations[node].providerDependencies, past: previous[node]?.providerDependencies ?? [])
            }
            for (at, _) in replaced { note(at) }
            for node in first..<registrations.count { note(node) }
        }
        guard let placed = checkReplaced(replaced.map(\.index), first: first, dependsOnAdded: dependsOnAdded) else { return false }
        let validator = Validator(configuration: name, registrations: registrations, find: { index[$0] }, rules: rules)

        // Missing keys' suggestions may now name an added registration; what is
        // replaced is looked at anew, and what depends on it where that may
        // change: all of them when its arguments change (their problems are
        // about its arguments), else those with problems (one names where it
        // is registered). Each level of a chain overriding a lifetime
        // looked at every dependent: quadratic.
        var again = Set(replaced.map(\.index))
        for (at, _) in replaced {
            let arguments = previous[at]?.arguments != registrations[at].arguments
            if arguments || declared.count >= dependents[at].count {
                for dependent in dependents[at].lazy.map(Int.init) where dependent < first {
                    if arguments || Self.has(dependent, in: declared) { again.insert(dependent) }
                }
            } else {
                for (node, _) in declared where node < first && registrations[node].dependsOn(at) { again.insert(node) }
            }
        }
        if !added.isEmpty { for nodes in missing.values { again.formUnion(nodes) } }
        for node in again.sorted() where !collectorNodes.contains(node) {
            count += Self.put(validator.declarationProblems(registrations[node], keys: &keys), at: node, in: &declared)
        }
        for planned in replaced.map({ registrations[$0.index] }) + registrations[first...]
        where !collectorNodes.contains(planned.index) {
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
        Self.rank(registrations, into: &ranks, placed: placed)
        let holders = updateReached(gave, first: first)
        if !routes.isEmpty {
            // What was found through a replaced one is found again; the rest stands (indices are kept).
            // Where that reaches far (a lifetime toggled under many dependents), all is found again,
            // as for a configuration alone: walking up costs more than what it would spare.
            if let changed = Self.passingThroughDependents(of: replaced.map(\.index), registrations: registrations,
                                                           previous: previous, dependents: dependents,
                                                           budget: 64 + 8 * (replaced.count + added.count)) {
                for known in routes.values {
                    known.validator = validator
                    known.forget(changed)
                }
            } else {
                routes = [:]
            }
        }
        for holder in (Set(replaced.map(\.index)).union(holders)).sorted() + Array(first..<registrations.count) where count < budget {
            count += Self.put(validator.captives(holders: CollectionOfOne(holder), reached: &reached, routes: &routes),
                              at: holder, in: &captives)
        }
        detachRoutes()
        return true
    }

    /// Lets the kept routes go of this level's validator: it holds the
    /// registrations and their index, which the next level then changes in
    /// place (kept, each level copied both whole).
    private mutating func detachRoutes() {
        guard !routes.isEmpty else { return }
        let detached = Validator(configuration: name, registrations: [], find: { _ in nil }, rules: rules)
        for known in routes.values { known.validator = detached }
    }

    /// `nodes` and the registrations that reach them through transient and
    /// graph-scoped ones (now or, for those replaced, before): what
    /// ``CaptiveRoutes`` found for them may have changed.
    /// Nil past `budget` dependents looked at.
    private static func passingThroughDependents(of nodes: [Int], registrations: [PlannedRegistration],
                                                 previous: [Int: PlannedRegistration], dependents: [[Int32]],
                                                 budget: Int) -> Set<Int>? {
        var changed = Set(nodes)
        var stack = nodes
        var looked = 0
        while let node = stack.popLast() {
            looked += dependents[node].count
            if looked > budget { return nil }
            for dependent in dependents[node].lazy.map(Int.init) where !changed.contains(dependent) {
                let planned = previous[dependent] ?? registrations[dependent]
                guard Validator.passesThrough(planned) || Validator.passesThrough(registrations[dependent]) else { continue }
                changed.insert(dependent)
                stack.append(dependent)
            }
        }
        return changed
    }

    /// The scopes a holder reaching registration `node` through transient
    /// and graph-scoped ones captures there: its own, or those it reaches.
    private func scopesGiven(by node: Int) -> Set<String>? {
        switch registrations[node].lifetime {
        case .custom(let scope): return [scope]
        case .transient, .graph: return reached?.scopes(from: node)
        case .singleton, .weak: return nil
        }
    }

    /// Finds anew the scopes reached through what changed — the replaced
    /// registrations (what each gave before in `gave`) and those added
    /// (from `first`) — going up through transient and graph-scoped ones
    /// only while what they reach changes, each after all it depends on.
    ///
    /// - Returns: the inherited holders whose captives may change: all
    ///   above a replaced one that gives scopes to what holders capture,
    ///   before or now.
    private mutating func updateReached(_ gave: [Int: Set<String>?], first: Int) -> Set<Int> {
        // Only added: what they reach is found as a plan's is, and nothing inherited changes.
        guard !gave.isEmpty else {
            reached?.extend(registrations)
            return []
        }
        let replaced = gave.keys.sorted()
        guard reached != nil else {
            // No holder reaches anything through transient or graph-scoped ones: those depending on a replaced one are looked at.
            return above(replaced, first: first, passing: false).holders
        }
        reached?.update([], in: registrations)
        var waiting = RankedNodes()
        var queued: Set<Int> = []
        for node in replaced + Array(first..<registrations.count) where queued.insert(node).inserted {
            waiting.insert(node, rank: ranks[node])
        }
        while let node = waiting.popLowest() {
            if ranks[node] == Self.onACycle {
                // A cycle orders nothing: all is found anew, and all above what is replaced looked at.
                reached = ScopesReached(registrations)
                return above(replaced, first: first).holders
            }
            let before = node >= first ? nil : gave[node] ?? scopesGiven(by: node)
            reached?.update([node], in: registrations)
            guard node >= first || before != scopesGiven(by: node) else { continue }
            for dependent in dependents[node].lazy.map(Int.init)
            where dependent < first && Self.passesThrough(registrations[dependent].lifetime)
                && registrations[dependent].instanceDependencies.contains(node)
                && queued.insert(dependent).inserted {
                waiting.insert(dependent, rank: ranks[dependent])
            }
        }
        // Above one that gives a holder's captive scopes, before or now, the
        // scopes, the path or the place a holder captures may change (where
        // they changed, they came from one of these).
        let walked = replaced.filter { (gave[$0] ?? nil) != nil || scopesGiven(by: $0) != nil }
        // Only a holder that may not keep one of the scopes they give, before
        // or now, can have a captive through them (session-scoped holders of a
        // lifetime toggling between session and transient were all looked at,
        // at each level of a chain: quadratic).
        var inPlay: Set<String> = []
        for node in walked { inPlay.formUnion((gave[node] ?? nil) ?? []); inPlay.formUnion(scopesGiven(by: node) ?? []) }
        var captures: [Scope: Bool] = [:]
        var last: (lifetime: Scope, captures: Bool)?     // (most holders share a lifetime: asked without hashing it)
        return above(walked, first: first) { lifetime in
            if let last, last.lifetime == lifetime { return last.captures }
            let found = captures[lifetime] ?? inPlay.contains { rules.mayNotKeep($0, lifetime: lifetime) }
            captures[lifetime] = found
            last = (lifetime, found)
            return found
        }.holders
    }

    /// Whether a holder's captive passes through one of `lifetime`.
    private static func passesThrough(_ lifetime: Scope) -> Bool {
        lifetime == .transient || lifetime == .graph
    }

    /// The inherited registrations (before `first`) whose captives may go
    /// through or end at `nodes`: those that reach one through transient and
    /// graph-scoped ones (`passingThrough`), and the longer-lived ones that
    /// depend on one of those or of `nodes` (`holders`, those of a lifetime
    /// `holding` takes); with `passing` false, only those depending on one of `nodes`.
    private func above(_ nodes: [Int], first: Int, passing: Bool = true,
                       holding: (Scope) -> Bool = { _ in true }) -> (passingThrough: [Int], holders: Set<Int>) {
        var passingThrough: [Int] = [], holders: Set<Int> = []
        var seen = Set(nodes)
        var stack = nodes
        while let node = stack.popLast() {
            for dependent in dependents[node].lazy.map(Int.init)
            where dependent < first && registrations[dependent].instanceDependencies.contains(node) {
                switch registrations[dependent].lifetime {
                case .transient, .graph:
                    if passing, seen.insert(dependent).inserted {
                        passingThrough.append(dependent)
                        stack.append(dependent)
                    }
                case .singleton, .weak, .custom:
                    if holding(registrations[dependent].lifetime) { holders.insert(dependent) }
                }
            }
        }
        return (passingThrough, holders)
    }

    /// Each registration's dependents, by instance or provider.
    private static func dependents(of registrations: [PlannedRegistration]) -> [[Int32]] {
        var dependents = [[Int32]](repeating: [], count: registrations.count)
        for planned in registrations {
            for target in planned.instanceDependencies + planned.providerDependencies where target >= 0 {
                dependents[target].append(Int32(planned.index))
            }
        }
        return dependents
    }

    /// Checks that the `replaced` registrations, in place, close no cycle:
    /// each keeps its rank, and the added ones (from `first`) it depends on
    /// are ranked below it.
    ///
    /// - Returns: those added ones' ranks; nil when it may not hold.
    private mutating func checkReplaced(_ replaced: [Int], first: Int, dependsOnAdded: Bool) -> [Int: Int32]? {
        // One on a cycle, or reaching one, keeps what it depends on.
        guard replaced.allSatisfy({ ranks[$0] != Self.onACycle }) else { return nil }
        var placed: [Int: Int32] = [:]
        if dependsOnAdded {
            guard let below = Self.ranksBelow(replaced, first: first, in: registrations, ranks: ranks) else {
                return raiseRanks(replaced, first: first)
            }
            placed = below
        }
        for at in replaced {
            let planned = registrations[at]
            // It closes no cycle when all it depends on ranks below it.
            guard planned.instanceDependencies.allSatisfy({ $0 < 0 || ($0 < first ? ranks[$0] : placed[$0] ?? .max) < ranks[at] }) else {
                return raiseRanks(replaced, first: first)
            }
        }
        return placed
    }

    /// Where there is no room below what is replaced — an empty collection's
    /// collector given its first contribution, which depends on something —
    /// ranks the added ones above what they depend on, and raises what is
    /// replaced, and what depends on it, as far as that needs: a bounded
    /// walk up (nil past its bound, or where it would not end: a cycle).
    ///
    /// - Returns: the added ones' ranks (inherited ones are raised in place).
    private mutating func raiseRanks(_ replaced: [Int], first: Int) -> [Int: Int32]? {
        guard replaced.allSatisfy({ ranks[$0] != Self.onACycle }) else { return nil }
        var added: [Int: Int32] = [:]
        var queue = Array(first..<registrations.count) + replaced, head = 0
        var queued = Set(queue)
        let limit = 4 * queue.count + 4_096
        while head < queue.count {
            guard head < limit else { return nil }
            let node = queue[head]
            head += 1
            queued.remove(node)
            var needed: Int32 = 0, ready = true
            for target in registrations[node].instanceDependencies where target >= 0 {
                guard let rank = target >= first ? added[target] : ranks[target] else { ready = false; break }
                guard rank != Self.onACycle else { return nil }
                needed = max(needed, rank + 1)
            }
            // One waiting for an added one is looked at again once that is ranked.
            guard ready else { continue }
            if node >= first {
                guard needed > added[node] ?? .min else { continue }
                added[node] = needed
            } else {
                guard needed > ranks[node] else { continue }
                ranks[node] = needed
            }
            for dependent in dependents[node].lazy.map(Int.init)
            where registrations[dependent].instanceDependencies.contains(node) && queued.insert(dependent).inserted {
                queue.append(dependent)
            }
        }
        // One never ranked waits on a cycle among the added.
        guard added.count == registrations.count - first else { return nil }
        return added
    }

    /// Whether `registration` contributes to a collection or depends on one
    /// (or on what may be one): it may change or add a collector.
    private static func namesACollection(_ registration: Registration) -> Bool {
        registration.contribution != nil || registration.dependencies.contains { CollectorChanges.mayBeCollection($0.key) }
    }

    /// Whether `registration` registers a collection itself (then the
    /// plan makes no collector for it).
    private static func registersACollection(_ registration: Registration) -> Bool {
        registration.contribution == nil && CollectorChanges.mayBeCollection(registration.key)
    }

    /// The rank of a registration on a cycle, or reaching one.
    static let onACycle = Int32.max

    /// Ranks the registrations past those `ranks` has, each above all it
    /// depends on (those in `placed` have theirs already) — ``onACycle``
    /// for those on a cycle or reaching one. Ranks may be negative: one
    /// that a replaced registration depends on is ranked below it
    /// (``ranksBelow(_:first:in:ranks:)``).
    ///
    /// One strongly connected component at a time (``DependencyComponents``).
    private static func rank(_ registrations: [PlannedRegistration], into ranks: inout [Int32],
                             placed: [Int: Int32] = [:]) {
        let start = ranks.count, count = registrations.count
        guard count > start else { return }
        ranks += [Int32](repeating: 0, count: count - start)
        for (node, rank) in placed { ranks[node] = rank }
        // Those before `start`, and those placed, are finished.
        DependencyComponents.visit(registrations, from: start, follows: { placed[$0] == nil }) { members in
            // One on its own is ranked above what it depends on; a cycle's members are on one.
            var rank: Int32 = 0
            let node = members[members.startIndex]
            if members.count > 1 || registrations[node].instanceDependencies.contains(node) {
                rank = onACycle
            } else {
                for target in registrations[node].instanceDependencies where target >= 0 {
                    rank = ranks[target] == onACycle ? onACycle : max(rank, ranks[target] + 1)
                    if rank == onACycle { break }
                }
            }
            for member in members { ranks[member] = rank }
        }
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

    /// Whether `list` (ordered by node) has problems of `node`.
    private static func has(_ node: Int, in list: [(node: Int, problems: [RegistryError])]) -> Bool {
        var low = 0, high = list.count
        while low < high {
            let middle = (low + high) / 2
            if list[middle].node < node { low = middle + 1 } else { high = middle }
        }
        return low < list.count && list[low].node == node
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

/// Registrations waiting their turn, lowest rank first (a binary heap).
private struct RankedNodes {
    private var heap: [(rank: Int32, node: Int)] = []

    mutating func insert(_ node: Int, rank: Int32) {
        heap.append((rank, node))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].rank < heap[parent].rank else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    mutating func popLowest() -> Int? {
        guard let top = heap.first else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var lowest = parent
                if left < heap.count && heap[left].rank < heap[lowest].rank { lowest = left }
                if right < heap.count && heap[right].rank < heap[lowest].rank { lowest = right }
                guard lowest != parent else { break }
                heap.swapAt(parent, lowest)
                parent = lowest
            }
        }
        return top.node
    }
}

private extension PlannedRegistration {
    /// Whether it depends on registration `node`, by instance or provider.
    func dependsOn(_ node: Int) -> Bool { instanceDependencies.contains(node) || providerDependencies.contains(node) }
}
