import FactoryRegistry
import LuaBridge

/// Why ``FactoryHost/override(in:key:body:origin:derived:namedWith:)``
/// refused: its caller says it in its own words (the test runner names the
/// test and its hooks).
public enum OverrideRefusal: Error, Equatable {
    /// The value holds no script container.
    case noContainer
    /// The body is not a registration table (its Lua type).
    case notABody(typeName: String)
    /// A factory is building: a registration cannot change under its own resolve.
    case factoryBuilding
    /// The container has built these (keys) and opened these (scopes, a child)
    /// already: what it kept was built from the registrations being replaced.
    case containerHolds(built: [String], opened: [String])
}

extension FactoryHost {
    /// Replaces the script container `containerValue` holds by one of a
    /// configuration that extends its configuration with `body` registered
    /// for `key` as an override — typed and scope-checked like any — before
    /// that container has kept anything (a singleton, a scoped instance, an
    /// open scope). The first override of a container makes the configuration,
    /// named after the one it extends with `suffix` (numbered if taken), and
    /// records it in `derived` (made → extended); later ones add to it.
    /// `factoryhost test`'s `override "Key" { … }` is this, in a test.
    ///
    /// ```swift
    /// var derived: [String: String] = [:]
    /// try host.override(in: containerValue, key: "HTTPSession", body: body, origin: origin,
    ///                   derived: &derived, namedWith: " (overrides)")
    /// ```
    ///
    /// - Throws: ``OverrideRefusal`` when it cannot be done now; a `LuaError`
    ///   (`.typeMismatch`) or a `RegistryError` for a registration that cannot be made.
    public func override(in containerValue: LuaValue, key: String, body: LuaValue, origin: Origin,
                         derived: inout [String: String], namedWith suffix: String) throws {
        guard case .userdata(let userdata) = containerValue, let script = userdata.object(as: ScriptContainer.self) else {
            throw OverrideRefusal.noContainer
        }
        guard case .table(let table) = body else { throw OverrideRefusal.notABody(typeName: body.typeName) }
        let current = script.container
        if runningLuaFactories > 0 { throw OverrideRefusal.factoryBuilding }
        // What the container keeps (eager singletons aside: the replacement
        // builds its own) was built from the registrations being replaced.
        let kept = current.liveSingletons().filter { !$0.registration.eager }.map { $0.registration.key.description }
        let opened = current.openScopeNames.map { "scope '\($0)'" } + (current.hasLiveChildren ? ["a child container"] : [])
        guard kept.isEmpty && opened.isEmpty else { throw OverrideRefusal.containerHolds(built: kept, opened: opened) }
        // An override says it overrides (a params-only one changes parameters).
        try table.rawSet("override", .boolean(true))
        var parser = RegistrationParser(catalog: types, keyText: key, origin: origin)
        parser.verb = "override"
        guard let registration = try table.withSlot({ try parser.parse(body: $0, host: self) }).take() else {
            throw LuaError(.runtime, "override \"\(key)\": the registration was taken already")
        }
        // The configuration of this container's overrides: made by the first, named
        // apart from every configuration the script declared.
        let name: String
        if derived[current.configuration] != nil {
            name = current.configuration                      // this container was overridden already
        } else {
            let base = current.configuration
            var candidate = base + suffix, number = 1
            while registry.configuration(candidate) != nil {
                number += 1
                // "app (overrides 2)", or "app-overridden 2" for a suffix without parentheses.
                candidate = suffix.hasSuffix(")") ? base + suffix.dropLast() + " \(number))" : base + suffix + " \(number)"
            }
            name = candidate
            _ = try registry.defineConfiguration(name, extends: base, origin: origin)
            derived[name] = base
        }
        guard let configuration = registry.configuration(name) else {
            throw LuaError(.runtime, "override \"\(key)\": the configuration of the overrides is gone")
        }
        let replacement: Container
        do {
            try configuration.add(registration)
            replacement = try container(name)
        } catch let error as RegistryError {
            throw LuaError(.runtime, "override \"\(key)\": \(error)")
        }
        do {
            try current.close()
        } catch {
            try? replacement.close()
            throw LuaError(.runtime, "override \"\(key)\": closing the container it replaces failed: \(error)")
        }
        script.container = replacement
        if isDefaultContainer(current) { useContainer(replacement) }
    }

}
