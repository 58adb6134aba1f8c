/// What resolution reads for each registration, in trivially-copyable form
/// (no reference counting on the resolve path). Owned by a ``ContainerPlan``,
/// whose registrations keep the factories alive.
@usableFromInline
struct HotRegistration {
    @usableFromInline
    enum Lifetime: UInt8 { case transient, graph, singleton, weak, custom, parent }

    @usableFromInline var lifetime: Lifetime
    /// The factory is a TypedFactory of the registered type.
    @usableFromInline var isTyped: Bool
    /// The factory checks its own results (an UntypedFactory that says so).
    var checksResults: Bool
    var slot: Int32
    @usableFromInline var argumentCount: Int32
    @usableFromInline var typeID: ObjectIdentifier
    @usableFromInline var factory: Unmanaged<AnyFactory>
    /// Declared instance dependencies: `dependencies[instanceStart ..< instanceStart + instanceCount]`.
    @usableFromInline var instanceStart: Int32
    @usableFromInline var instanceCount: Int32
    /// Declared provider dependencies, likewise.
    var providerStart: Int32
    var providerCount: Int32
}

/// The plan's hot data: one ``HotRegistration`` per registration, the
/// declared dependency indices, and the key table.
// @unchecked Sendable: the buffers are allocated and filled in init, never written again, and freed in
// deinit; concurrent readers need no lock (they reach the table only through a plan their container holds).
final class HotTable: @unchecked Sendable {
    let registrations: UnsafeMutableBufferPointer<HotRegistration>
    let dependencies: UnsafeMutableBufferPointer<Int32>
    /// For each entry of `dependencies`: the declared key's type identity,
    /// or 0 when the key has a name (named keys take the hashed path).
    let dependencyTypes: UnsafeMutableBufferPointer<UInt>
    let keys: KeyTable

    init(_ planned: [PlannedRegistration], keys: KeyTable) {
        self.keys = keys
        let total = planned.reduce(0) { $0 + $1.instanceDependencies.count + $1.providerDependencies.count }
        dependencies = .allocate(capacity: max(total, 1))
        dependencyTypes = .allocate(capacity: max(total, 1))
        registrations = .allocate(capacity: max(planned.count, 1))
        var cursor = 0
        for (i, p) in planned.enumerated() {
            let declared = p.registration.dependencies
            let instanceKeys = declared.filter { $0.kind == .instance }.map(\.key)
            let providerKeys = declared.filter { $0.kind == .provider }.map(\.key)
            let instanceStart = cursor
            for (d, key) in zip(p.instanceDependencies, instanceKeys) {
                dependencies[cursor] = Int32(d)
                dependencyTypes[cursor] = key.name == nil ? UInt(bitPattern: key.type.id) : 0
                cursor += 1
            }
            let providerStart = cursor
            for (d, key) in zip(p.providerDependencies, providerKeys) {
                dependencies[cursor] = Int32(d)
                dependencyTypes[cursor] = key.name == nil ? UInt(bitPattern: key.type.id) : 0
                cursor += 1
            }
            var lifetime: HotRegistration.Lifetime
            switch p.lifetime {
            case .transient: lifetime = .transient
            case .graph: lifetime = .graph
            case .singleton: lifetime = .singleton
            case .weak: lifetime = .weak
            case .custom: lifetime = .custom
            }
            if p.delegatesToParent { lifetime = .parent }
            registrations.initializeElement(at: i, to: HotRegistration(
                lifetime: lifetime, isTyped: p.isTyped,
                checksResults: (p.factory as? UntypedFactory)?.checksResults ?? false, slot: Int32(p.slot), argumentCount: Int32(p.arguments.count),
                typeID: p.typeID, factory: Unmanaged.passUnretained(p.factory),
                instanceStart: Int32(instanceStart), instanceCount: Int32(p.instanceDependencies.count),
                providerStart: Int32(providerStart), providerCount: Int32(p.providerDependencies.count)))
        }
    }

    /// A table for a plan that only validates: keys, and nothing to resolve
    /// with (a slot each, never read).
    init(unresolvable keys: KeyTable) {
        self.keys = keys
        dependencies = .allocate(capacity: 1)
        dependencyTypes = .allocate(capacity: 1)
        registrations = .allocate(capacity: 1)
    }

    deinit {
        registrations.deallocate()
        dependencies.deallocate()
        dependencyTypes.deallocate()
    }

    /// Whether registration `holder` declares `target` as an instance (or provider) dependency.
    @inline(__always)
    static func declares(_ registrations: UnsafeMutableBufferPointer<HotRegistration>,
                         _ dependencies: UnsafeMutableBufferPointer<Int32>,
                         _ holder: Int, _ target: Int, provider: Bool) -> Bool {
        let h = registrations[holder]
        let start = Int(provider ? h.providerStart : h.instanceStart)
        let count = Int(provider ? h.providerCount : h.instanceCount)
        var i = start
        while i < start + count {
            if dependencies[i] == Int32(target) { return true }
            i += 1
        }
        return false
    }
}
