import FactoryRegistry
import LuaBridge

/// `override "HTTPSession" { make = … }` in a test or its hooks: the test's
/// container is replaced by one of a configuration that extends the test's
/// with that registration — typed and scope-checked like any — and gone
/// with the test (declarations made in a test are forgotten after it).
extension FactoryHost {
    /// The suffix of the configuration a test's overrides make.
    static let testOverridesSuffix = " (test overrides)"

    /// Overrides `key` for the test whose container `testContainer` is,
    /// before that container has kept anything (a singleton, a scoped
    /// instance, an open scope): what it built would otherwise be built
    /// from two different registrations.
    ///
    /// ```lua
    /// it("times out", function(c)
    ///   override "HTTPSession" { scope = "singleton", make = function() return net.HTTPSession.new { baseURL = "fixture://slow" } end }
    ///   expect(c:resolve("MovieLoader").session.baseURL):to_be("fixture://slow")
    /// end)
    /// ```
    public func overrideInTest(_ testContainer: LuaValue, key: String, body: LuaValue, origin: Origin) throws {
        guard case .userdata(let userdata) = testContainer, let script = userdata.object(as: ScriptContainer.self) else {
            throw LuaError(.runtime, "override \"\(key)\": this test has no container (give its describe or it a config, or run with --config)")
        }
        guard case .table(let table) = body else {
            throw LuaError(.typeMismatch, "bad argument #1 to 'override \"\(key)\"' (table (override \"\(key)\" { make = function() … end }) "
                           + "expected, got \(body.typeName))")
        }
        let current = script.container
        // What the container keeps (eager singletons aside: the replacement
        // builds its own) was built from the registrations being replaced.
        let kept = current.liveSingletons().filter { !$0.registration.eager }.map { $0.registration.key.description }
            + current.openScopeNames.map { "scope '\($0)'" }
        guard kept.isEmpty else {
            throw LuaError(.runtime, "override \"\(key)\": the test's container has built \(kept.prefix(3).joined(separator: ", "))"
                           + "\(kept.count > 3 ? " and \(kept.count - 3) more" : "") already; override before resolving (at the start of the test, or in a before_each)")
        }
        let parser = RegistrationParser(catalog: types, keyText: key, origin: origin)
        guard var registration = try parser.parse(body: table, host: self).take() else {
            throw LuaError(.runtime, "override \"\(key)\": the registration was taken already")
        }
        registration.overrides = true
        let base = current.configuration
        let name = base.hasSuffix(Self.testOverridesSuffix) ? base : base + Self.testOverridesSuffix
        let configuration = try registry.configuration(name)
            ?? registry.defineConfiguration(name, extends: base, origin: origin)
        do {
            try configuration.add(registration)
            let replacement = try container(name)
            try current.close()
            script.container = replacement
            if isDefaultContainer(current) { useContainer(replacement) }
        } catch let error as RegistryError {
            throw LuaError(.runtime, "override \"\(key)\": \(error)")
        }
    }

}
