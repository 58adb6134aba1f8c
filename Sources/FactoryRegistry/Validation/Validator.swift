import FactoryhostSupport

/// Checks a configuration from its declarations alone — nothing is built:
/// structural problems (unknown or cyclic `extends`, duplicates, overrides
/// of nothing), unknown scopes, missing registrations, argument mismatches,
/// dependency cycles and captive dependencies. Every problem, at once.
///
/// Its parts also check a few registrations of a larger whole: what
/// ``ConfigurationValidation`` asks when a configuration only adds to the
/// one it extends.
struct Validator {
    let configuration: String
    /// Planned as a container would (dependencies as indices), each at its index.
    let registrations: [PlannedRegistration]
    /// The index of a key's registration, nil when there is none.
    let find: (ServiceKey) -> Int?
    let rules: ScopeRules

    init(plan: ContainerPlan) {
        let index = plan.index
        self.init(configuration: plan.configuration, registrations: plan.registrations, find: { index.find($0) },
                  rules: plan.scopeRules)
    }

    init(configuration: String, registrations: [PlannedRegistration], find: @escaping (ServiceKey) -> Int?, rules: ScopeRules) {
        self.configuration = configuration
        self.registrations = registrations
        self.find = find
        self.rules = rules
    }

    private var scopes: [String: ScopeDeclaration] { rules.scopes }

    /// What a plan's problems are: `structural` (from flattening it), then
    /// each registration's, the cycles, the captives.
    /// It stops looking past `limit` problems (and gives the first `limit`).
    func problems(structural: [RegistryError], limit: Int = .max) -> [RegistryError] {
        var problems = structural
        var keys: NameSuggestion.Keys?              // made at the first missing key, once
        for planned in registrations where problems.count < limit {
            problems += declarationProblems(planned, keys: &keys)
        }
        if problems.count < limit { problems += cycles(among: 0..<registrations.count) }
        var reached: ScopesReached?
        var routes: [Scope: CaptiveRoutes] = [:]
        for holder in registrations.indices where problems.count < limit {
            problems += captives(holders: CollectionOfOne(holder), reached: &reached, routes: &routes)
        }
        return Array(problems.prefix(limit))
    }

    private func problem(_ kind: RegistryError.Kind, _ message: String, _ planned: PlannedRegistration,
                         details: [String] = [], hint: String? = nil) -> RegistryError {
        RegistryError(kind, message, configuration: configuration,
                      details: details + ["\(planned.name) registered at \(planned.registration.origin)"] + (hint.map { [$0] } ?? []),
                      origin: planned.registration.origin)
    }

    /// One registration's own problems: an undeclared scope, missing
    /// dependencies (`keys` suggests names; made here from `registrations`
    /// if nil), arguments that do not fit.
    func declarationProblems(_ planned: PlannedRegistration, keys: inout NameSuggestion.Keys?) -> [RegistryError] {
        var problems: [RegistryError] = []
        if case .custom(let scope) = planned.lifetime, scopes[scope] == nil {
            let known = scopes.keys.sorted()
            // A misspelled built-in lifetime (`"singelton"`) is the likelier mistake than an undeclared scope.
            let builtIn = ["transient", "graph", "singleton", "weak"]
            problems.append(problem(.unknownScope, "\(planned.name) is registered in scope '\(scope)', which is not declared"
                                    + NameSuggestion.didYouMean(scope, among: builtIn + known),
                                    planned, details: ["declared scopes: " + MessageText.list(known)
                                                       + " (built in: " + builtIn.joined(separator: ", ") + ")"]))
        }
        for dependency in planned.registration.dependencies {
            guard let target = find(dependency.key) else {
                if keys == nil { keys = NameSuggestion.Keys(registrations.map(\.name)) }
                let near = keys?.closest(to: dependency.key.description)
                var missing = problem(.missingRegistration, "no registration for \(dependency.key)", planned,
                                      details: ["required by \(planned.name) as \(dependency)"] + (near.map { ["did you mean \($0)?"] } ?? []))
                missing.missingKey = dependency.key.description       // check points at the line naming it
                problems.append(missing)
                continue
            }
            let targetSpecs = registrations[target].arguments
            switch dependency.kind {
            case .instance where !targetSpecs.isEmpty:
                problems.append(problem(
                    .argumentMismatch,
                    "\(planned.name) depends on an instance of \(dependency.key), which takes runtime arguments ("
                        + targetSpecs.map(\.description).joined(separator: ", ") + ")",
                    planned, details: ["depend on a provider of \(dependency.key) instead, and call it with the arguments"]))
            case .provider:
                if let given = dependency.argumentTypes, given != targetSpecs.map(\.type) {
                    problems.append(problem(
                        .argumentMismatch,
                        "\(planned.name) expects a provider of \(dependency.key) taking ("
                            + given.map(\.name).joined(separator: ", ") + "), but it takes ("
                            + targetSpecs.map(\.description).joined(separator: ", ") + ")",
                        planned))
                }
                if let given = dependency.arguments, !Self.passes(given, to: targetSpecs) {
                    let called = registrations[target]
                    problems.append(RegistryError(
                        .argumentMismatch,
                        "\(planned.name).\(dependency.label ?? "provider") passes (" + given.map(\.description).joined(separator: ", ")
                            + ") to \(dependency.key), which takes "
                            + (targetSpecs.isEmpty ? "no runtime arguments" : "(" + targetSpecs.map(\.description).joined(separator: ", ") + ")"),
                        configuration: configuration,
                        details: ["\(planned.name) registered at \(planned.registration.origin)",
                                  "\(called.name) registered at \(called.registration.origin)"],
                        origin: planned.registration.origin))
                }
            default: break
            }
        }
        return problems
    }

    /// Whether a provider passing `given` (by name) gives `taken` exactly
    /// the arguments it takes, each of its type or to one that takes any.
    private static func passes(_ given: [ArgumentSpec], to taken: [ArgumentSpec]) -> Bool {
        guard given.count == taken.count else { return false }
        return given.allSatisfy { argument in
            taken.contains { $0.name == argument.name && ($0.type == argument.type || $0.acceptsEveryType) }
        }
    }

    /// Instance-dependency cycles (providers break cycles: they resolve
    /// later) among `nodes` — edges leaving them are not followed — each
    /// reported once with its whole path.
    func cycles(among nodes: Range<Int>) -> [RegistryError] {
        var state = [UInt8](repeating: 0, count: nodes.count)     // 0 new, 1 on the stack, 2 done
        var reported: Set<[Int]> = []
        var problems: [RegistryError] = []
        for start in nodes where state[start - nodes.lowerBound] == 0 {
            // An explicit stack: no recursion, so no depth limit.
            var stack: [(node: Int, next: Int)] = [(start, 0)]
            state[start - nodes.lowerBound] = 1
            while let top = stack.last {
                let edges = registrations[top.node].instanceDependencies
                if top.next >= edges.count {
                    state[top.node - nodes.lowerBound] = 2
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1].next += 1
                let target = edges[top.next]
                guard nodes.contains(target) else { continue }
                if state[target - nodes.lowerBound] == 0 {
                    state[target - nodes.lowerBound] = 1
                    stack.append((target, 0))
                } else if state[target - nodes.lowerBound] == 1, let from = stack.firstIndex(where: { $0.node == target }) {
                    let members = stack[from...].map(\.node)
                    let canonical = members.sorted()
                    guard reported.insert(canonical).inserted else { continue }
                    let first = registrations[target]
                    // Its names and places as a path is shown: a cycle of 8,000 said all of them, in
                    // each configuration of a chain growing it (quadratic memory, 960 MB).
                    let (start, end) = Self.pathNamesShown
                    func place(_ node: Int) -> String { "\(registrations[node].name) registered at \(registrations[node].registration.origin)" }
                    let places = members.count > start + end + 1
                        ? members.prefix(start).map(place) + ["… (\(members.count - start - end) more) …"] + members.suffix(end).map(place)
                        : members.map(place)
                    problems.append(RegistryError(
                        .cycle, "dependency cycle: " + Self.shownPath((members + [target]).map { registrations[$0] }),
                        configuration: configuration, details: places, origin: first.registration.origin))
                }
            }
        }
        return problems
    }

    /// The most names a path shows: its start and its end, and how many
    /// between were left out. A problem is kept per holder, and a thousand
    /// holders above a 20,000-link chain kept 20 million names (1.3 GB).
    static let pathNamesShown = (start: 30, end: 5)

    /// `path`'s names joined by arrows, at most ``pathNamesShown`` of them.
    static func shownPath(_ path: [PlannedRegistration]) -> String {
        let (start, end) = pathNamesShown
        guard path.count > start + end + 1 else { return path.map(\.name).joined(separator: " → ") }
        return shownPath(start: Array(path.prefix(start)), count: path.count, end: Array(path.suffix(end)))
    }

    /// A path of `count` registrations that starts with `start` and ends
    /// with `end` (all of it, when they are), joined by arrows.
    static func shownPath(start: [PlannedRegistration], count: Int, end: [PlannedRegistration]) -> String {
        let left = count - start.count - end.count
        return (start.map(\.name) + (left > 0 ? ["… (\(left) more) …"] : []) + end.map(\.name)).joined(separator: " → ")
    }

    /// Longer-lived registrations that would hold scoped instances, directly
    /// or through transient and graph-scoped ones, each reached once per
    /// holder, its path the one through the first dependency (in declared
    /// order) that reaches it.
    ///
    /// What each transient or graph-scoped registration reaches is found
    /// once for every holder of a lifetime (``CaptiveRoutes``): a thousand
    /// singletons above a 20,000-link chain each walked it (5,000 × 5,000
    /// took 22 s). Where such registrations depend on each other in a
    /// cycle, holders of that lifetime walk instead, each the branches that
    /// reach a scope it would capture (`ScopesReached`), with parent links.
    ///
    /// `reached` is made from `registrations` at the first need if nil.
    /// `routes`, kept across calls on the same registrations, shares what
    /// was found between holders looked at one at a time.
    func captives(holders: some Sequence<Int>, reached: inout ScopesReached?,
                  routes: inout [Scope: CaptiveRoutes]) -> [RegistryError] {
        var problems: [RegistryError] = []
        for index in holders {
            let holder = registrations[index]
            guard holder.lifetime != .transient && holder.lifetime != .graph else { continue }
            if case .custom(let own) = holder.lifetime, scopes[own] == nil { continue }   // reported as undeclared
            let kind = holder.lifetime == .weak ? Scope.singleton : holder.lifetime      // the same scopes captured
            if reached == nil, holder.instanceDependencies.contains(where: { $0 >= 0 && Self.passesThrough(registrations[$0]) }) {
                reached = ScopesReached(registrations)
            }
            let known = routes[kind] ?? CaptiveRoutes(validator: self, holder: holder)
            routes[kind] = known
            if let found = known.captives(of: holder, reached: reached) {
                problems += found
            } else {
                problems += walkingCaptives(of: holder, reached: &reached)
            }
        }
        return problems
    }

    static func passesThrough(_ planned: PlannedRegistration) -> Bool {
        planned.lifetime == .transient || planned.lifetime == .graph
    }

    /// A captive dependency of `holder` on `captured` (scope `scope`), along `path` (``shownPath(_:)``).
    func captive(_ holder: PlannedRegistration, _ captured: PlannedRegistration, scope: String, reason: String,
                 path: String) -> RegistryError {
        problem(.captiveDependency, "captive dependency: \(reason)", holder,
                details: ["path: " + path, "\(captured.name) registered at \(captured.registration.origin)"],
                hint: ScopeRules.captiveFix(holder: holder, captured: captured, scope: scope))
    }

    /// `holder`'s captives, found by walking what it reaches (where
    /// ``CaptiveRoutes`` meets a cycle): only the branches that reach a
    /// scope it would capture (`ScopesReached`), paths kept as parent links.
    private func walkingCaptives(of holder: PlannedRegistration, reached: inout ScopesReached?) -> [RegistryError] {
        var problems: [RegistryError] = []
        var captures: [String: String?] = [:]      // scope → why this holder must not capture it (nil: it may)
        func reason(_ scope: String) -> String? {
            if let known = captures[scope] { return known }
            let found = rules.captiveReason(holder: holder, scope: scope)
            captures[scope] = found
            return found
        }
        var parent: [Int: Int] = [:]
        var visited: Set<Int> = [holder.index]
        var stack: [Int] = [holder.index]
        while let node = stack.popLast() {
            for target in registrations[node].instanceDependencies where target >= 0 && !visited.contains(target) {
                let planned = registrations[target]
                switch planned.lifetime {
                case .transient, .graph:
                    if reached == nil { reached = ScopesReached(registrations) }
                    guard let scopes = reached?.scopes(from: target), scopes.contains(where: { reason($0) != nil }) else {
                        continue    // nothing this holder would capture lies that way
                    }
                    visited.insert(target)
                    parent[target] = node
                    stack.append(target)
                case .custom(let scope):
                    visited.insert(target)
                    // An undeclared scope is reported as such; a captive of it would only repeat the typo.
                    guard scopes[scope] != nil, let reason = reason(scope) else { continue }
                    var chain = [target]
                    var step = node
                    while step != holder.index, let previous = parent[step] {
                        chain.append(step)
                        step = previous
                    }
                    chain.append(holder.index)
                    problems.append(captive(holder, planned, scope: scope, reason: reason,
                                            path: Self.shownPath(chain.reversed().map { registrations[$0] })))
                case .singleton, .weak:
                    visited.insert(target)
                }
            }
        }
        return problems
    }
}

extension Registry {
    /// Every problem of configuration `name` — or of every configuration — found
    /// from declarations alone, without building anything. Empty means valid.
    ///
    /// ```swift
    /// for problem in registry.validate() { print(problem) }
    /// ```
    public func validate(_ name: String? = nil) -> [RegistryError] {
        guard let name else { return validateAll() }
        return validate(name, stoppingAfter: .max).problems
    }

    /// The first `limit` problems of configuration `name`, and whether there
    /// were more (400 singletons each holding a collection of 400
    /// session-scoped contributions are 160,000 captives).
    ///
    /// ```swift
    /// let (problems, stopped) = registry.validate("app", stoppingAfter: 5_000)
    /// ```
    public func validate(_ name: String, stoppingAfter limit: Int) -> (problems: [RegistryError], stopped: Bool) {
        do {
            let plan = try plan(name, caching: false)
            // One more than asked for says whether there were more.
            let problems = Validator(plan: plan).problems(structural: plan.problems, limit: limit == .max ? .max : limit + 1)
            return (Array(problems.prefix(limit)), problems.count > limit)
        } catch let error as RegistryError {
            return ([error], false)
        } catch {
            return ([RegistryError(.invalidRegistration, "\(error)", configuration: name)], false)
        }
    }
}
