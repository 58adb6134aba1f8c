/// The collectors a validated plan has (``ContainerPlan/addCollectors(to:)``),
/// kept as its flattening grows, so that a configuration that contributes to
/// a collection, or depends on one, is validated from its parent's
/// validation: the collector of a collection it contributes to is replaced
/// by one with its contribution added, one it is the first to name is
/// added. (Each level of a chain adding a contribution was validated whole:
/// 4,000 levels took over 10 s.)
struct CollectorChanges {
    /// Each collector's place among the validation's registrations.
    private var nodes: [ServiceKey: Int] = [:]
    /// Each collection's contributions, in the flattening's order: the
    /// first (whose place the collector takes), and the collector's dependencies.
    private var contributions: [ServiceKey: (first: Origin, dependencies: [Dependency])] = [:]
    /// Whether each collection is a map, and the place an empty one is said to be declared.
    private var kinds: [ServiceKey: (isMap: Bool, origin: Origin)] = [:]

    /// What a configuration changes: collectors at `replaced` nodes, and
    /// new ones to add after its own registrations (in the order a plan adds them).
    struct Changes {
        var replaced: [(index: Int, registration: Registration)] = []
        var added: [Registration] = []
    }

    /// The collectors among `planned` (those `isCollector` says are), and
    /// what the others — a flattening's registrations, in its order — collect.
    init(planned: [PlannedRegistration], isCollector: (PlannedRegistration) -> Bool) {
        for planned in planned {
            if isCollector(planned) { nodes[planned.key] = planned.index } else { note(planned.registration) }
        }
    }

    /// Notes what `registration` contributes (unless `contributes` is
    /// false: it is in place already), and the collections it depends on,
    /// as ``ContainerPlan/addCollectors(to:)`` does.
    /// - Returns: the collection keys it names first, its contribution's first.
    @discardableResult
    private mutating func note(_ registration: Registration, contributes: Bool = true) -> [ServiceKey] {
        var named: [ServiceKey] = []
        if contributes, let contribution = registration.contribution {
            let key = contribution.collectionKey(for: registration.key.type)
            contributions[key, default: (registration.origin, [])].dependencies.append(Dependency(contributedBy: registration))
            if case .map = contribution { kinds[key] = (true, registration.origin) } else { kinds[key] = (false, registration.origin) }
            named.append(key)
        }
        for dependency in registration.dependencies where Self.mayBeCollection(dependency.key) {
            guard kinds[dependency.key] == nil,
                  let isMap = CollectionIdentities.shared.collectionKind(dependency.key.type.id) else { continue }
            kinds[dependency.key] = (isMap, registration.origin)
            named.append(dependency.key)
        }
        return named
    }

    /// Whether `key` may be a collection's (`[T]`, `{T}`): its type's name says so.
    static func mayBeCollection(_ key: ServiceKey) -> Bool {
        guard let first = key.type.name.utf8.first else { return false }
        return first == UInt8(ascii: "[") || first == UInt8(ascii: "{")
    }

    /// The collectors that the `replaced` registrations (`old` → `new`, in
    /// the flattening's order) and the `added` ones change or add; nil when
    /// that cannot be told from here — a collection the configuration
    /// registers itself (the plan adds no collector for it), a replaced one
    /// that no longer depends on a collection it named (whose collector
    /// would go or move).
    ///
    /// - Parameters:
    ///   - first: where the added registrations' nodes start (new collectors follow them).
    ///   - registered: whether a registration (no collector) has the key.
    mutating func extend(replaced: [(old: Registration, new: Registration)], added: ArraySlice<Registration>, first: Int,
                         registered: (ServiceKey) -> Bool) -> Changes? {
        var rebuilt: [ServiceKey] = [], order: [ServiceKey] = []
        var changed: Set<ServiceKey> = [], ordered: Set<ServiceKey> = []
        for (old, new) in replaced {
            let named = Set(new.dependencies.lazy.map(\.key).filter(Self.mayBeCollection))
            guard old.dependencies.allSatisfy({ !Self.mayBeCollection($0.key) || named.contains($0.key) }) else { return nil }
            guard let contribution = new.contribution else { continue }
            // An override of a contribution keeps its place (and its dependency); the collector says where its first one is.
            let key = contribution.collectionKey(for: new.key.type)
            guard nodes[key] != nil, let first = contributions[key]?.dependencies.first else { return nil }
            if first.key == new.key { contributions[key]?.first = new.origin }
            if changed.insert(key).inserted { rebuilt.append(key) }
        }
        func take(_ registration: Registration, contributes: Bool) -> Bool {
            for key in note(registration, contributes: contributes) {
                if nodes[key] != nil {
                    if registration.contribution != nil, changed.insert(key).inserted { rebuilt.append(key) }
                } else if registered(key) {
                    guard registration.contribution == nil else { return false }
                } else if ordered.insert(key).inserted {
                    order.append(key)
                }
            }
            return true
        }
        for (_, new) in replaced { guard take(new, contributes: false) else { return nil } }
        for registration in added { guard take(registration, contributes: true) else { return nil } }
        var changes = Changes()
        for key in rebuilt {
            guard let node = nodes[key], let kind = kinds[key] else { return nil }
            changes.replaced.append((node, collector(key, kind)))
        }
        for key in order {
            guard let kind = kinds[key] else { return nil }
            nodes[key] = first + added.count + changes.added.count
            changes.added.append(collector(key, kind))
        }
        return changes
    }

    /// The collector of collection `key`, as a plan makes it.
    private func collector(_ key: ServiceKey, _ kind: (isMap: Bool, origin: Origin)) -> Registration {
        let collected = contributions[key]
        return .collector(key, dependencies: collected?.dependencies ?? [], isMap: kind.isMap, origin: collected?.first ?? kind.origin)
    }
}
