/// What each transient or graph-scoped registration reaches that holders
/// of one lifetime would capture — the custom-scoped registrations, in
/// order, each with its route — found once for all those holders, each
/// registration from what its dependencies reach (so a chain costs its
/// length once, not once per holder above it).
///
/// A route is the next step, the length, and the last few registrations
/// of the path: a holder's path is shown by its start and end
/// (``Validator/shownPath(start:count:end:)``) without walking its middle.
/// The route to a registration is through the first dependency (in
/// declared order) that reaches it.
///
/// Transient and graph-scoped registrations that depend on each other in a
/// cycle have no such order: a holder that reaches one walks
/// (``Validator/captives(holders:reached:routes:)``), whatever holders were
/// looked at before it — ``captives(of:reached:)`` says nil for it.
final class CaptiveRoutes {
    /// Where a path goes from a registration to what it reaches.
    struct Route {
        /// The next registration on the path (the reached one itself, last).
        let next: Int
        /// How many registrations the path has after the one it starts from.
        let length: Int
        /// Its last registrations (at most ``Validator/pathNamesShown``'s end), the reached one last.
        let end: [Int]
    }

    /// The registrations' validator: a configuration extending the one these
    /// routes were found for sets its own (indices stay: see ``forget(_:)``).
    var validator: Validator
    /// Whether holders of this lifetime capture a scope, by scope.
    private var captured: [String: Bool] = [:]
    private let sample: PlannedRegistration
    /// For each transient or graph-scoped registration looked at: what it reaches, in order, and the routes there.
    private var reaches: [Int: (order: [Int], routes: [Int: Route])] = [:]
    /// Those that reach a cycle among them (or are on one): a holder reaching one walks.
    private var cyclic: Set<Int> = []

    /// The routes for holders of `holder`'s lifetime.
    init(validator: Validator, holder: PlannedRegistration) {
        self.validator = validator
        self.sample = holder
    }

    /// Forgets what was found for `nodes` (replaced by an extending
    /// configuration, or above one through transient and graph-scoped
    /// registrations): found again when asked. What an `extends` chain adds
    /// level by level is then found once, not once per level (a holder above
    /// a 4,000-level transient chain grown a level at a time walked it at each).
    func forget(_ nodes: some Sequence<Int>) {
        for node in nodes {
            reaches[node] = nil
            cyclic.remove(node)
        }
    }

    /// `holder`'s captive dependencies (its lifetime's), in order; nil when
    /// a cycle stands in the way.
    func captives(of holder: PlannedRegistration, reached: ScopesReached?) -> [RegistryError]? {
        guard let (order, routes) = reachable(from: holder.index, reached: reached) else { return nil }
        let registrations = validator.registrations
        return order.compactMap { target in
            guard let route = routes[target], case .custom(let scope) = registrations[target].lifetime,
                  let reason = validator.rules.captiveReason(holder: holder, scope: scope) else { return nil }
            // Its start, walked (all of it, when it is short); its end, kept with the route.
            let count = route.length + 1
            let (shownStart, shownEnd) = Validator.pathNamesShown
            let walked = count <= shownStart + shownEnd + 1 ? count : shownStart
            var start = [holder.index], step = route.next
            while start.count < walked {
                start.append(step)
                if step == target { break }
                step = reaches[step]?.routes[target]?.next ?? target
            }
            let end = count > start.count ? Array(route.end.suffix(min(shownEnd, count - start.count))) : []
            return validator.captive(holder, registrations[target], scope: scope, reason: reason,
                                     path: Validator.shownPath(start: start.map { registrations[$0] }, count: count,
                                                               end: end.map { registrations[$0] }))
        }
    }

    /// Whether holders of this lifetime capture `scope` (declared: an undeclared one is reported as such).
    private func captures(_ scope: String) -> Bool {
        if let known = captured[scope] { return known }
        let found = validator.rules.scopes[scope] != nil && validator.rules.captiveReason(holder: sample, scope: scope) != nil
        captured[scope] = found
        return found
    }

    /// Whether transient or graph-scoped `node` reaches a scope these holders capture.
    private func leadsToACaptive(_ node: Int, _ reached: ScopesReached?) -> Bool {
        guard Validator.passesThrough(validator.registrations[node]) else { return false }
        return reached?.scopes(from: node)?.contains(where: captures) ?? false
    }

    /// What `node` reaches through its dependencies, in order; nil on a cycle.
    /// (`node` itself is not remembered unless it passes through: a holder's
    /// own are its alone.)
    private func reachable(from node: Int, reached: ScopesReached?) -> (order: [Int], routes: [Int: Route])? {
        if let known = reaches[node] { return known }
        let registrations = validator.registrations
        // Each after what it depends on, with a stack of its own (a chain of any depth).
        var stack: [(node: Int, next: Int)] = [(node, 0)]
        var onStack: Set<Int> = [node]
        while let top = stack.last {
            let dependencies = registrations[top.node].instanceDependencies
            if top.next < dependencies.count {
                stack[stack.count - 1].next += 1
                let dependency = dependencies[top.next]
                guard dependency >= 0, reaches[dependency] == nil, leadsToACaptive(dependency, reached) else { continue }
                if onStack.contains(dependency) || cyclic.contains(dependency) {
                    // All on the stack reach the cycle: theirs is walked, by every holder that reaches them.
                    for entry in stack where Validator.passesThrough(registrations[entry.node]) { cyclic.insert(entry.node) }
                    return nil
                }
                onStack.insert(dependency)
                stack.append((dependency, 0))
                continue
            }
            stack.removeLast()
            onStack.remove(top.node)
            let found = compose(top.node, reached)
            if Validator.passesThrough(registrations[top.node]) { reaches[top.node] = found }
            if stack.isEmpty { return found }
        }
        return nil
    }

    /// What `node` reaches, from its dependencies' (each already found).
    private func compose(_ node: Int, _ reached: ScopesReached?) -> (order: [Int], routes: [Int: Route]) {
        let registrations = validator.registrations
        let shownEnd = Validator.pathNamesShown.end
        var order: [Int] = [], routes: [Int: Route] = [:]
        for dependency in registrations[node].instanceDependencies where dependency >= 0 {
            switch registrations[dependency].lifetime {
            case .custom(let scope):
                guard captures(scope), routes[dependency] == nil else { continue }
                order.append(dependency)
                routes[dependency] = Route(next: dependency, length: 1, end: [dependency])
            case .transient, .graph:
                guard leadsToACaptive(dependency, reached), let further = reaches[dependency] else { continue }
                for target in further.order where routes[target] == nil {
                    guard let route = further.routes[target] else { continue }
                    order.append(target)
                    routes[target] = Route(next: dependency, length: route.length + 1, end: Array(([dependency] + route.end).suffix(shownEnd)))
                }
            case .singleton, .weak: continue
            }
        }
        return (order, routes)
    }
}
