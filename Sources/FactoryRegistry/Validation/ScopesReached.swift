/// For each transient or graph-scoped registration of a plan, the custom
/// scopes its instance dependencies reach through transient and
/// graph-scoped registrations — what a longer-lived holder of it would
/// capture.
///
/// Computed once per plan, one strongly connected component at a time
/// (Tarjan's algorithm, with an explicit stack so depth costs no native
/// stack), so a chain of any depth costs its length once, not once per
/// holder. The captive check uses it to walk only the branches that lead to
/// a problem.
struct ScopesReached {
    /// Scopes reached from each registration; nil for none, and for the
    /// registrations this does not describe (longer-lived ones).
    private var reached: [Set<String>?]

    init(_ plan: ContainerPlan) {
        let registrations = plan.registrations
        let count = registrations.count
        func passesThrough(_ node: Int) -> Bool {
            switch registrations[node].lifetime {
            case .transient, .graph: return true
            case .singleton, .weak, .custom: return false
            }
        }
        var reached = [Set<String>?](repeating: nil, count: count)
        var order = [Int32](repeating: -1, count: count)    // discovery order; -1 not yet seen
        var lowest = [Int32](repeating: 0, count: count)
        var onStack = [Bool](repeating: false, count: count)
        var component: [Int] = []
        var counter: Int32 = 0
        for root in 0..<count where passesThrough(root) && order[root] < 0 {
            var calls: [(node: Int, next: Int)] = []
            func enter(_ node: Int) {
                order[node] = counter
                lowest[node] = counter
                counter += 1
                component.append(node)
                onStack[node] = true
                calls.append((node, 0))
            }
            enter(root)
            while let top = calls.last {
                let edges = registrations[top.node].instanceDependencies
                if top.next < edges.count {
                    calls[calls.count - 1].next += 1
                    let target = edges[top.next]
                    guard target >= 0, passesThrough(target) else { continue }
                    if order[target] < 0 {
                        enter(target)
                    } else if onStack[target] {
                        lowest[top.node] = min(lowest[top.node], order[target])
                    }
                    continue
                }
                calls.removeLast()
                if let caller = calls.last {
                    lowest[caller.node] = min(lowest[caller.node], lowest[top.node])
                }
                guard lowest[top.node] == order[top.node] else { continue }
                // top.node roots a component: its members share what they reach.
                var members: [Int] = []
                repeat {
                    let member = component.removeLast()
                    onStack[member] = false
                    members.append(member)
                } while members.last != top.node
                var scopes: Set<String> = []
                for member in members {
                    for target in registrations[member].instanceDependencies where target >= 0 {
                        if case .custom(let scope) = registrations[target].lifetime {
                            scopes.insert(scope)
                        } else if let further = reached[target] {    // a finished component (or nil)
                            scopes.formUnion(further)
                        }
                    }
                }
                if !scopes.isEmpty {
                    for member in members { reached[member] = scopes }
                }
            }
        }
        self.reached = reached
    }

    /// The custom scopes reached from transient or graph-scoped `node`.
    func scopes(from node: Int) -> Set<String>? { reached[node] }
}
