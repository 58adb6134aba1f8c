import FactoryRegistry
import LuaBridge

/// A container as scripts hold it (`container "app"`).
final class ScriptContainer: LuaExportable {
    static let luaTypeName = "Container"
    /// The container; a test's is replaced when the test overrides a
    /// registration (``FactoryHost/override(in:key:body:origin:derived:namedWith:)``).
    var container: Container
    init(_ container: Container) { self.container = container }
}

/// An open custom scope as scripts hold it (`c:openScope "session"`).
final class ScriptScope: LuaExportable {
    static let luaTypeName = "Scope"
    let handle: ScopeHandle
    let container: Container
    init(_ handle: ScopeHandle, container: Container) {
        self.handle = handle
        self.container = container
    }
}

extension FactoryHost {
    /// The container a script value is (`container "app"`) or belongs to (an
    /// open scope), if it is one; and the scope, for a scope.
    public func container(of value: LuaValue) -> (container: Container, scope: ScopeHandle?)? {
        guard case .userdata(let userdata) = value else { return nil }
        if let script = userdata.object(as: ScriptContainer.self) { return (script.container, nil) }
        if let script = userdata.object(as: ScriptScope.self) { return (script.container, script.handle) }
        return nil
    }

    /// `c:resolve "Key"`, `c:resolve("Key", { arg = … })`, `c:openScope "session"`,
    /// `c:provider "Key"`, `c.configuration`.
    func containerClass() -> LuaClass<ScriptContainer> {
        let cls = LuaClass<ScriptContainer>()
            // A built singleton, once resolved, is answered without entering Swift.
            .memoizingMethod("resolve") { [unowned self] object, frame in
                try self.resolve(in: object.container, container: object.container, frame: frame, keyAt: 2, onContainer: true)
            }
        return withScopesAndProviders(cls, from: { ($0.container, $0.container.openScope) }, container: \.container)
            .method("close") { (object: ScriptContainer) in try object.container.close() }
            // `c:child { register … }`: overrides some registrations, shares what the parent owns.
            .method("child", frame: { [unowned self] object, frame in
                guard case .table(let body) = frame.value(2) else { throw frame.typeError(2, expected: "table") }
                let registrations = try self.childRegistrations(body, origin: frame.origin())
                let child: Container
                do {
                    child = try object.container.child(registrations)
                } catch {
                    // Not taken (a corrected child may use them), nor left to be
                    // reported as in no configuration: the error said what is wrong.
                    try self.forgetChildRegistrations(body, taking: false)
                    throw error
                }
                try self.forgetChildRegistrations(body, taking: true)   // the child's now
                try frame.push(self.types.toLua(ScriptContainer(child), in: self.lua))
                return 1
            })
            .property("parent") { [unowned self] object -> LuaValue in
                guard let parent = object.container.parent else { return .nil }
                return (try? self.types.toLua(ScriptContainer(parent), in: self.lua)) ?? .nil
            }
            .property("configuration") { $0.container.configuration }
            .property("isClosed") { $0.container.isClosed }
            .tostring { "Container(\($0.container.configuration)\($0.container.parent == nil ? "" : ", child")\($0.container.isClosed ? ", closed" : ""))" }
            .equality { $0.container === $1.container }       // one container, however many userdata
    }

    /// The same for an open scope, plus `s:close()`, `s.name`, `s.isClosed`.
    func scopeClass() -> LuaClass<ScriptScope> {
        let cls = LuaClass<ScriptScope>()
            .method("resolve", frame: { [unowned self] object, frame in
                _ = try self.resolve(in: object.handle, container: object.container, frame: frame, keyAt: 2)
                return 1
            })
        return withScopesAndProviders(cls, from: { ($0.handle, $0.handle.openScope) }, container: \.container)
            .method("close") { (object: ScriptScope) in try object.handle.close() }
            .property("name") { $0.handle.name }
            .property("isClosed") { $0.handle.isClosed }
            .tostring { "Scope(\($0.handle.name)\($0.handle.isClosed ? ", closed" : ""))" }
    }

    /// The registrations of `c:child { register … }`'s body.
    private func childRegistrations(_ body: LuaTable, origin: Origin) throws -> [Registration] {
        var specs: [(Int, RegistrationSpec)] = []
        for (key, item) in try body.pairs() {
            guard case .integer(let position) = key, case .userdata(let userdata) = item,
                  let spec = userdata.object(as: RegistrationSpec.self) else {
                throw LuaError(.typeMismatch, "child container\(origin.line > 0 ? " (\(origin))" : ""): the body holds register \"…\" { … } items only "
                               + "(got \(describeKey(key)) = \(describeValue(item)))")
            }
            specs.append((position, spec))
        }
        return try specs.sorted { $0.0 < $1.0 }.map { _, spec in
            guard let registration = spec.peek() else {
                throw RegistryError(.invalidRegistration, "register \"\(spec.key)\" (\(spec.origin)) is used twice",
                                    details: ["write one register block per configuration or child"], origin: spec.origin)
            }
            return registration
        }
    }

    /// Forgets the body's registrations (a child made in a loop keeps
    /// nothing in the host) — `taking` them when the child has them.
    private func forgetChildRegistrations(_ body: LuaTable, taking: Bool) throws {
        for (_, item) in try body.pairs() {
            guard case .userdata(let userdata) = item, let spec = userdata.object(as: RegistrationSpec.self) else { continue }
            if taking { _ = spec.take() }
            if let index = specs.lastIndex(where: { $0 === spec }) { specs.remove(at: index) }
        }
    }

    /// `x:openScope "name"` and `x:provider "Key"`, alike on a container and
    /// on an open scope: `from` gives what resolves and how it opens a scope,
    /// `container` the container a new scope belongs to.
    private func withScopesAndProviders<Object>(_ cls: LuaClass<Object>,
                                                from: @escaping (Object) -> (Resolving, (String) throws -> ScopeHandle),
                                                container: @escaping (Object) -> Container) -> LuaClass<Object> {
        cls.method("openScope", frame: { [unowned self] object, frame in
            let name = try frame.string(2)
            let handle = try ScriptScopes.stacked { try from(object).1(name) }
            try frame.push(self.types.toLua(ScriptScope(handle, container: container(object)), in: self.lua))
            return 1
        })
        .method("provider", frame: { [unowned self] object, frame in
            try frame.push(.function(self.provider(from: from(object).0, frame: frame)))
            return 1
        })
    }

    private func provider(from resolving: Resolving, frame: LuaFrame) throws -> LuaFunction {
        let key = try parsedKey(frame.string(2))
        return try providerFunction(resolving.anyProvider(key.serviceKey), name: key.description)
    }
}

// MARK: Closing Lua instances

/// Closes the Lua instances a container or scope lets go: a table (or
/// an interface a table implements, or any Lua value) with a `__close`
/// metamethod or a `close` method has it called, newest first.
extension FactoryHost: InstanceDisposer {
    /// Closes `instance` if it is a Lua value with a `__close` metamethod or a `close` method; does nothing otherwise.
    ///
    /// - Throws: a `LuaError` carrying what the close raised.
    public func dispose(_ instance: Any) throws {
        let value: LuaValue
        switch instance {
        case let table as LuaTable: value = .table(table)
        case let implemented as LuaImplemented: value = .table(implemented.implementation.face)
        case let implementation as LuaImplementation: value = .table(implementation.face)
        case let lua as LuaValue: value = lua
        default: return
        }
        try lua.checkOwnerThread("closing a Lua instance")
        do {
            try lua.close(value)
        } catch let error as LuaError {
            throw LuaRaise(error.message)          // the message says where; the close's report lists it
        }
    }

    /// `c:resolve "X"` remembered built singletons; a closed container has none.
    public func containerDidClose(_ container: Container) {
        lua.forgetMemos()
    }
}

