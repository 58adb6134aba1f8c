extension Registry {
    /// Every configuration with a known, acyclic `extends` chain, grouped
    /// by depth (roots first), and the others (an unknown or cyclic parent
    /// somewhere up their chain). Linear in the number of configurations:
    /// each chain is walked once, whatever its length.
    func configurationLevels() -> (levels: [[Configuration]], others: [String]) {
        lock.withLock {
            var depth: [String: Int] = [:]         // -1: none (an unknown or cyclic parent above)
            for name in configurationOrder where depth[name] == nil {
                // Up to a configuration whose depth is known, a root, an unknown name or a cycle…
                var path: [String] = []
                var onPath: Set<String> = []
                var cursor = name
                var above: Int?                    // the depth of the path's last one's parent (-1: it is a root)
                while true {
                    if let known = depth[cursor] { above = known >= 0 ? known : nil; break }
                    guard let configuration = configurationsByName[cursor], !onPath.contains(cursor) else { above = nil; break }
                    path.append(cursor)
                    onPath.insert(cursor)
                    guard let parent = configuration.parent else { above = -1; break }
                    cursor = parent
                }
                // …then down, each one level below its parent.
                var level = above
                for current in path.reversed() {
                    level = level.map { $0 + 1 }
                    depth[current] = level ?? -1
                }
            }
            var levels: [[Configuration]] = []
            var others: [String] = []
            for name in configurationOrder {
                guard let level = depth[name], level >= 0, let configuration = configurationsByName[name] else {
                    others.append(name)
                    continue
                }
                while levels.count <= level { levels.append([]) }
                levels[level].append(configuration)
            }
            return (levels, others)
        }
    }

    /// Every configuration's problems, flattening each from its parent's
    /// flattening (kept only until the next level is done): linear in an
    /// `extends` chain, where flattening each from its root was quadratic
    /// (10,000 chained configurations took 52 s to check).
    func validateAll() -> [RegistryError] {
        let (levels, others) = configurationLevels()
        let scopes = lock.withLock { scopeDeclarations }
        var problemsByName: [String: [RegistryError]] = [:]
        var previous: [String: ContainerPlan.Flattening] = [:]
        for level in levels {
            var current: [String: ContainerPlan.Flattening] = [:]
            for configuration in level {
                var flattening = configuration.parent.flatMap { previous[$0]?.inherited(by: configuration.name) } ?? ContainerPlan.Flattening()
                ContainerPlan.merge(configuration, into: &flattening, plan: configuration.name)
                let plan = ContainerPlan(configuration: configuration.name, flattening: flattening, scopes: scopes, resolvable: false)
                problemsByName[configuration.name] = Validator(plan: plan).problems()
                current[configuration.name] = flattening
            }
            previous = current
        }
        for name in others {
            do {
                problemsByName[name] = Validator(plan: try plan(name, caching: false)).problems()
            } catch let error as RegistryError {
                problemsByName[name] = [error]
            } catch {
                problemsByName[name] = [RegistryError(.invalidRegistration, "\(error)", configuration: name)]
            }
        }
        // In the order the configurations were declared, as one by one.
        return configurationNames.flatMap { problemsByName[$0] ?? [] }
    }

    /// How many registrations each configuration has, inherited ones
    /// included (each key once) — each from its parent's keys, linear in an
    /// `extends` chain. Configurations with an unknown or cyclic parent count
    /// as ``registrationCount(in:)`` counts them.
    public func registrationCounts() -> [String: Int] {
        let (levels, others) = configurationLevels()
        var counts: [String: Int] = [:]
        var previous: [String: Set<ServiceKey>] = [:]
        for level in levels {
            var current: [String: Set<ServiceKey>] = [:]
            for configuration in level {
                var keys = configuration.parent.flatMap { previous[$0] } ?? []
                for registration in configuration.ordered { keys.insert(registration.key) }
                counts[configuration.name] = keys.count
                current[configuration.name] = keys
            }
            previous = current
        }
        for name in others { counts[name] = (try? registrationCount(in: name)) ?? 0 }
        return counts
    }
}
