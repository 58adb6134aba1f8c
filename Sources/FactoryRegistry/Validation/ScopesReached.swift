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

    init(_ registrations: [PlannedRegistration]) {
        reached = []
        extend(registrations)
    }

    /// Adds the registrations of `registrations` past those this describes
    /// (which none of those it describes depend on) — a configuration that
    /// adds to the one it extends costs what it adds.
    mutating func extend(_ registrations: [PlannedRegistration]) {
        let start = reached.count
        let count = registrations.count
        guard count > start else { return }
        func passesThrough(_ node: Int) -> Bool {
            switch registrations[node].lifetime {
            case .transient, .graph: return true
            case .singleton, .weak, .custom: return false
            }
        }
        reached += [Set<String>?](repeating: nil, count: count - start)
        // Those before `start` are finished; a component's members share what they reach.
        DependencyComponents.visit(registrations, from: start, follows: passesThrough) { members in
            let scopes = scopes(reachedBy: members, in: registrations)
            if !scopes.isEmpty {
                for member in members { reached[member] = scopes }
            }
        }
    }

    /// Finds anew what `nodes` reach — each listed after all it depends on
    /// (no cycle among them) — when what they depend on has changed; any
    /// past those this describes are added.
    mutating func update(_ nodes: [Int], in registrations: [PlannedRegistration]) {
        if reached.count < registrations.count {
            reached += [Set<String>?](repeating: nil, count: registrations.count - reached.count)
        }
        for node in nodes {
            switch registrations[node].lifetime {
            case .transient, .graph: break
            case .singleton, .weak, .custom:
                reached[node] = nil
                continue
            }
            let scopes = scopes(reachedBy: CollectionOfOne(node), in: registrations)
            reached[node] = scopes.isEmpty ? nil : scopes
        }
    }

    /// The custom scopes `members` depend on directly, and those their
    /// transient and graph-scoped dependencies reach (already found).
    private func scopes(reachedBy members: some Sequence<Int>, in registrations: [PlannedRegistration]) -> Set<String> {
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
        return scopes
    }

    /// The custom scopes reached from transient or graph-scoped `node`.
    func scopes(from node: Int) -> Set<String>? { reached[node] }
}
