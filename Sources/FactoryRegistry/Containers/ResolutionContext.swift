/// The state of one top-level resolve: the path being built (for cycles,
/// captive checks and messages), the graph-scoped instances, and the scope
/// handle it started from.
final class ResolutionContext {
    unowned(unsafe) let container: Container
    let scope: ScopeHandle?
    var path: ContiguousArray<Int> = []
    var graphInstances: [Int: Any]?

    /// Below this stack address a nested resolve fails with `.tooDeep`
    /// instead of overflowing the thread's stack (see ``StackGuard``).
    private let stackFloor: UInt

    init(container: Container, scope: ScopeHandle?) {
        self.container = container
        self.scope = scope
        let low = StackGuard.lowBound()
        // Unknown bound: allow 256 KiB from here, inside the smallest thread stacks.
        self.stackFloor = low != 0 ? low + StackGuard.reserve : currentStackAddress() &- 256 * 1024
    }

    var plan: ContainerPlan { container.plan }

    /// The path's names, outermost first, followed by `extra`.
    func pathNames(adding extra: String? = nil) -> [String] {
        path.map { plan.registrations[$0].name } + (extra.map { [$0] } ?? [])
    }

    func error(_ kind: RegistryError.Kind, _ message: String, adding extra: String? = nil,
               details: [String] = [], origin: Origin? = nil) -> RegistryError {
        RegistryError(kind, message, configuration: plan.configuration, path: pathNames(adding: extra),
                      details: details, origin: origin)
    }

    // MARK: Resolving

    /// Resolves registration `index` as a `T`, honouring its scope.
    func resolve<T>(_ index: Int, as type: T.Type, arguments: Arguments) throws -> T {
        let planned = plan.registrations[index]
        if path.contains(index) {
            let start = path.firstIndex(of: index) ?? 0
            let cycle = path[start...].map { plan.registrations[$0].name } + [planned.name]
            throw error(.cycle, "dependency cycle: " + cycle.joined(separator: " → "), adding: planned.name,
                        details: path[start...].map { "\(plan.registrations[$0].name) registered at \(plan.registrations[$0].registration.origin)" },
                        origin: planned.registration.origin)
        }
        if currentStackAddress() < stackFloor {
            throw error(.tooDeep, "the graph is too deep to build: \(path.count) nested resolves exhausted the thread's stack",
                        adding: planned.name, origin: planned.registration.origin)
        }
        path.append(index)
        defer { path.removeLast() }
        switch planned.lifetime {
        case .transient:
            return try build(planned, as: T.self, arguments)
        case .graph:
            if let existing = graphInstances?[index] { return try cast(existing, planned) }
            let value = try build(planned, as: T.self, arguments)
            if graphInstances == nil { graphInstances = [:] }
            graphInstances?[index] = value
            return value
        case .singleton, .weak:
            let slot = container.slots[planned.slot]
            if let existing = slot.value { return try cast(existing, planned) }
            return try container.creationLock.withLock {
                if let existing = slot.value { return try cast(existing, planned) }
                let value = try build(planned, as: T.self, arguments)
                if planned.lifetime == .weak && !(Swift.type(of: value as Any) is AnyObject.Type) {
                    throw error(.wrongType, "\(planned.name) is weak-scoped, but its factory made a \(typeName(of: value)), which is not a class instance",
                                details: ["registered at \(planned.registration.origin)"], origin: planned.registration.origin)
                }
                slot.store(value)
                return value
            }
        case .custom(let scopeName):
            let scope = try findScope(scopeName, for: planned)
            try checkCaptive(planned, scopeName)
            if let existing = try scope.instance(at: index) { return try cast(existing, planned) }
            return try container.creationLock.withLock {
                if let existing = try scope.instance(at: index) { return try cast(existing, planned) }
                let value = try build(planned, as: T.self, arguments)
                try scope.store(value, at: index)
                return value
            }
        }
    }

    /// Runs the factory of `planned`, after checking the arguments.
    private func build<T>(_ planned: PlannedRegistration, as type: T.Type, _ arguments: Arguments) throws -> T {
        if arguments.count != 0 || !planned.arguments.isEmpty { try checkArguments(arguments, for: planned) }
        let resolver = Resolver(context: self, current: planned.index)
        do {
            if let typed = planned.factory as? TypedFactory<T> { return try typed.body(resolver, arguments) }
            let value = try planned.factory.make(resolver, arguments)
            guard planned.key.type.accepts(value) else {
                throw error(.wrongType,
                            "the factory for \(planned.name) returned \(describe(value)), expected \(planned.key.type.name)",
                            details: ["registered at \(planned.registration.origin)"], origin: planned.registration.origin)
            }
            return try cast(value, planned)
        } catch let error as RegistryError {
            throw error
        } catch {
            throw self.error(.factoryFailed, "the factory for \(planned.name) failed: \(error)",
                             details: ["registered at \(planned.registration.origin)"], origin: planned.registration.origin)
        }
    }

    private func cast<T>(_ value: Any, _ planned: PlannedRegistration) throws -> T {
        if let typed = value as? T { return typed }
        throw error(.wrongType, "\(planned.name) is a \(describe(value)), not a \(String(describing: T.self))",
                    details: ["registered at \(planned.registration.origin)"], origin: planned.registration.origin)
    }

    private func describe(_ value: Any) -> String {
        "a value of type \(typeName(of: value))"
    }

    func checkArguments(_ arguments: Arguments, for planned: PlannedRegistration) throws {
        let specs = planned.arguments
        let expected = specs.isEmpty ? "no runtime arguments" : specs.map(\.description).joined(separator: ", ")
        guard arguments.count == specs.count else {
            throw error(.argumentMismatch,
                        "\(planned.name) takes \(specs.count) runtime argument\(specs.count == 1 ? "" : "s") (\(expected)), got \(arguments.count)",
                        details: ["registered at \(planned.registration.origin)"], origin: planned.registration.origin)
        }
        for (spec, value) in zip(specs, arguments.values) where !spec.type.accepts(value) {
            throw error(.argumentMismatch,
                        "argument '\(spec.name)' of \(planned.name): expected \(spec.type.name), got \(typeName(of: value))",
                        details: ["registered at \(planned.registration.origin)"], origin: planned.registration.origin)
        }
    }

    // MARK: Scopes

    private func findScope(_ name: String, for planned: PlannedRegistration) throws -> ScopeHandle {
        guard plan.scopes[name] != nil else {
            throw error(.unknownScope, "\(planned.name) is registered in scope '\(name)', which is not declared",
                        details: ["registered at \(planned.registration.origin)"], origin: planned.registration.origin)
        }
        if let start = scope {
            var cursor: ScopeHandle? = start
            while let handle = cursor {
                if handle.name == name { return handle }
                cursor = handle.parent
            }
            throw error(.scopeNotOpen, "no '\(name)' scope is open to hold \(planned.name)",
                        details: ["resolved through a '\(start.name)' scope, which is not inside a '\(name)' scope"],
                        origin: planned.registration.origin)
        }
        guard let handle = container.activeScope(named: name) else {
            throw error(.scopeNotOpen, "no '\(name)' scope is open to hold \(planned.name)",
                        details: ["open one first (container.openScope(\"\(name)\"))"], origin: planned.registration.origin)
        }
        return handle
    }

    /// A longer-lived instance on the path may not capture a scoped one.
    private func checkCaptive(_ planned: PlannedRegistration, _ scopeName: String) throws {
        for holderIndex in path.dropLast().reversed() {
            let holder = plan.registrations[holderIndex]
            if let reason = plan.captiveReason(holder: holder, scope: scopeName) {
                throw error(.captiveDependency, "captive dependency: \(reason)",
                            details: ["\(holder.name) registered at \(holder.registration.origin)",
                                      "\(planned.name) registered at \(planned.registration.origin)"],
                            origin: holder.registration.origin)
            }
            if holder.lifetime != .transient && holder.lifetime != .graph { break }
        }
    }
}

