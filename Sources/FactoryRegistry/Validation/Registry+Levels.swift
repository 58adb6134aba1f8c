extension Registry {
    /// Every configuration grouped by depth, roots first — each chain
    /// walked once, whatever its length. A configuration whose `extends`
    /// names nothing, and each one on a cycle of `extends`, is a root here
    /// (as if it extended nothing), with its problem in `broken`: one per
    /// unknown name, one per cycle (on its first member declared), so a
    /// 4,000-long cycle is one problem, not 4,000 restating it, each
    /// flattened around the whole cycle (37 s, 2.3 GB).
    func configurationLevels() -> (levels: [[Configuration]], broken: [String: RegistryError]) {
        lock.withLock {
            var depth: [String: Int] = [:]
            var broken: [String: RegistryError] = [:]
            var position: [String: Int] = [:]
            // A suggestion compares with every name: for the first 50 unknown parents only
            // (10,000 configurations each extending a name of its own was quadratic).
            var suggestionsLeft = 50
            for (index, name) in configurationOrder.enumerated() { position[name] = index }
            for name in configurationOrder where depth[name] == nil {
                // Up to a configuration whose depth is known, a root, an unknown name or a cycle…
                var path: [String] = []
                var onPath: [String: Int] = [:]
                var cursor = name
                var above = -1                     // the depth of the path's last one's parent (-1: it is a root)
                while true {
                    if let known = depth[cursor] { above = known; break }
                    guard let configuration = configurationsByName[cursor] else { break }   // (only a parent can be unknown)
                    if let start = onPath[cursor] {
                        // A cycle: its members are roots; the path above them is not on it.
                        let members = Array(path[start...])
                        let first = members.min { position[$0, default: 0] < position[$1, default: 0] } ?? cursor
                        broken[first] = cycleProblem(members, first: first)
                        for member in members { depth[member] = 0 }
                        path.removeSubrange(start...)
                        above = 0
                        break
                    }
                    onPath[cursor] = path.count
                    path.append(cursor)
                    guard let parent = configuration.parent else { break }
                    if configurationsByName[parent] == nil {
                        var suggestion = ""
                        if suggestionsLeft > 0 {
                            suggestionsLeft -= 1
                            suggestion = NameSuggestion.didYouMean(parent, among: configurationOrder.filter { $0 != cursor })
                        }
                        broken[cursor] = RegistryError(
                            .unknownConfiguration, "configuration '\(cursor)' extends '\(parent)', which is not defined" + suggestion,
                            configuration: cursor, details: ["defined at \(configuration.origin)"], origin: configuration.origin)
                        break
                    }
                    cursor = parent
                }
                // …then down, each one level below its parent.
                var level = above
                for current in path.reversed() {
                    level += 1
                    depth[current] = level
                }
            }
            var levels: [[Configuration]] = []
            for name in configurationOrder {
                guard let configuration = configurationsByName[name] else { continue }
                // A broken one is a root whatever its parent's depth.
                let level = broken[name] != nil ? 0 : depth[name] ?? 0
                while levels.count <= level { levels.append([]) }
                levels[level].append(configuration)
            }
            return (levels, broken)
        }
    }

    /// One problem for a cycle of `extends`, naming its members (the first
    /// 20, then how many more) at the first one's declaration.
    private func cycleProblem(_ members: [String], first: String) -> RegistryError {
        guard let start = members.firstIndex(of: first) else {
            return RegistryError(.configurationCycle, "configurations extend each other in a cycle", configuration: first)
        }
        let ordered = Array(members[start...] + members[..<start])
        let shown = ordered.prefix(20)
        let names = shown.joined(separator: " → ") + (ordered.count > 20 ? " → … (\(ordered.count - 20) more)" : "") + " → " + first
        let origin = configurationsByName[first]?.origin
        return RegistryError(.configurationCycle, "configurations extend each other in a cycle: " + names, configuration: first,
                             details: shown.compactMap { name in configurationsByName[name].map { "'\(name)' defined at \($0.origin)" } }
                                 + (ordered.count > 20 ? ["… and \(ordered.count - 20) more"] : []),
                             origin: origin)
    }

    /// Visits every configuration, parents first, giving each what `visit`
    /// returned for the one it extends (nil for a root, a broken one, or
    /// one on a cycle) — moved to the last one extending it, copied for the
    /// others, so an `extends` chain costs its length, not its square.
    /// (`visit` takes it out of `inherited` before changing it: no copy is
    /// made while `inherited` still holds it.)
    private func forEachConfiguration<Kept>(_ levels: [[Configuration]], broken: [String: RegistryError],
                                            _ visit: (Configuration, _ isBroken: Bool, _ inherited: inout Kept?) -> Kept?) {
        var extending: [String: Int] = [:]          // how many configurations extend each, still to visit
        for (depth, level) in levels.enumerated() where depth > 0 {
            for configuration in level { if let parent = configuration.parent { extending[parent, default: 0] += 1 } }
        }
        var kept: [String: Kept] = [:]
        for (depth, level) in levels.enumerated() {
            for configuration in level {
                let isBroken = broken[configuration.name] != nil || (depth == 0 && configuration.parent != nil)
                var inherited: Kept?
                if depth > 0, let parent = configuration.parent, let left = extending[parent] {
                    // The last one takes it (no copy); earlier ones copy it.
                    inherited = left == 1 ? kept.removeValue(forKey: parent) : kept[parent]
                    extending[parent] = left - 1
                }
                if let made = visit(configuration, isBroken, &inherited), extending[configuration.name] != nil {
                    kept[configuration.name] = made
                }
            }
        }
    }

    /// Every configuration's problems, each validated from its parent's
    /// validation (``ConfigurationValidation``): linear in an `extends`
    /// chain, where validating each whole was quadratic (10,000 chained
    /// configurations took over 60 s to check).
    func validateAll() -> [RegistryError] {
        var whole = 0
        return validateAll(stoppingAfter: .max, wholeValidations: &whole).problems
    }

    /// Every configuration's problems, up to `limit` of them: a script
    /// whose every configuration restates its parent's problems — a
    /// duplicate at each level of a 4,000-long chain is 8 million — gets
    /// the first `limit` found and `stopped`, in time and memory bounded by
    /// the limit. (A configuration's problems are each at most a few KB.)
    ///
    /// ```swift
    /// let (problems, stopped) = registry.validate(stoppingAfter: 5_000)
    /// ```
    public func validate(stoppingAfter limit: Int) -> (problems: [RegistryError], stopped: Bool) {
        var whole = 0
        return validateAll(stoppingAfter: limit, wholeValidations: &whole)
    }

    /// ``validate(stoppingAfter:)``, counting the configurations validated
    /// whole rather than from what they add (for tests).
    func validateAll(stoppingAfter limit: Int, wholeValidations: inout Int) -> (problems: [RegistryError], stopped: Bool) {
        let (levels, broken) = configurationLevels()
        let rules = ScopeRules(lock.withLock { scopeDeclarations })
        var problemsByName: [String: [RegistryError]] = [:]
        var found = 0, stopped = false
        forEachConfiguration(levels, broken: broken) { (configuration, isBroken, inherited: inout ConfigurationValidation?) in
            guard found < limit else {          // stopped: nothing more is looked at
                stopped = true
                return nil
            }
            // One more than is left: finding it says there were more.
            let budget = limit - found == .max ? .max : limit - found + 1
            let validation: ConfigurationValidation
            if var extended = inherited {
                inherited = nil
                if !extended.extend(with: configuration, budget: budget) {
                    extended = ConfigurationValidation(configuration.name, flattening: extended.flattening, rules: rules, budget: budget)
                    wholeValidations += 1
                }
                validation = extended
            } else {
                var flattening = ContainerPlan.Flattening()
                ContainerPlan.merge(configuration, into: &flattening, plan: configuration.name)
                // What it overrides is beyond the broken link: the link is the problem.
                if isBroken { flattening.problems.removeAll { $0.kind == .nothingToOverride } }
                validation = ConfigurationValidation(configuration.name, flattening: flattening, rules: rules, budget: budget)
                wholeValidations += 1
            }
            let brokenLink = broken[configuration.name].map { [$0] } ?? []
            problemsByName[configuration.name] = Array((brokenLink + validation.problems(limit: limit - found)).prefix(limit - found))
            found += brokenLink.count + validation.count
            if validation.isTruncated || found > limit {
                stopped = true
                found = limit
                return nil
            }
            return validation
        }
        // In the order the configurations were declared, as one by one.
        return (configurationNames.flatMap { problemsByName[$0] ?? [] }, stopped)
    }

    /// How many registrations each configuration has, inherited ones
    /// included (each key once) — each from its parent's keys, linear in an
    /// `extends` chain. One whose `extends` names nothing, or that is on a
    /// cycle of them, counts its own (what it would inherit is unknown).
    public func registrationCounts() -> [String: Int] {
        let (levels, broken) = configurationLevels()
        var counts: [String: Int] = [:]
        forEachConfiguration(levels, broken: broken) { (configuration, _, inherited: inout Set<ServiceKey>?) in
            var keys = inherited ?? []
            inherited = nil
            for registration in configuration.ordered { keys.insert(registration.key) }
            counts[configuration.name] = keys.count
            return keys
        }
        return counts
    }
}
