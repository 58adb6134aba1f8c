import FactoryRegistry
import LuaBridge

/// `override "HTTPSession" { make = … }` in a test or its hooks: the test's
/// container is replaced by one of a configuration that extends the test's
/// with that registration — typed and scope-checked like any — and gone
/// with the test (declarations made in a test are forgotten after it).
extension FactoryHost {
    /// The suffix of the configuration a test's overrides make.
    static let testOverridesSuffix = " (test overrides)"

    /// Records a build for `--coverage`: in the configuration the container
    /// is of — a test's overrides' configuration counts for the one it extends.
    func recordCoverage(_ resolver: Resolver, key: String, origin: Origin) {
        guard let coverage, let container = try? resolver.container else { return }
        let name = container.configuration
        coverage.record(configuration: testOverrideBases[name] ?? name, key: key, origin: origin)
    }

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
    ///
    /// `inBeforeEach`: the override is in a `before_each` hook (the advice on
    /// a refusal differs: the hook to move is another).
    ///
    /// - Throws: a `LuaError`: `.runtime` when the test has no container or a factory is building, `.typeMismatch` for a body that is not a registration table; a `RegistryError` for a registration that cannot be made.
    public func overrideInTest(_ testContainer: LuaValue, key: String, body: LuaValue, origin: Origin,
                               inBeforeEach: Bool = false) throws {
        guard case .userdata(let userdata) = testContainer, let script = userdata.object(as: ScriptContainer.self) else {
            throw LuaError(.runtime, "override \"\(key)\": this test has no container (give its describe or it a config, or run with --config)")
        }
        guard case .table(let table) = body else {
            throw LuaError(.typeMismatch, "bad argument #1 to 'override \"\(key)\"' (table (override \"\(key)\" { make = function() … end }) "
                           + "expected, got \(body.typeName))")
        }
        let current = script.container
        if runningLuaFactories > 0 {
            throw LuaError(.runtime, "override \"\(key)\": not while a factory is building (a registration cannot change under its own resolve)")
        }
        // What the container keeps (eager singletons aside: the replacement
        // builds its own) was built from the registrations being replaced.
        let kept = current.liveSingletons().filter { !$0.registration.eager }.map { $0.registration.key.description }
        let opened = current.openScopeNames.map { "scope '\($0)'" } + (current.hasLiveChildren ? ["a child container"] : [])
        guard kept.isEmpty && opened.isEmpty else {
            // "has built Cache", "has opened scope 'basket'": what it holds, in the words that fit.
            var held: [String] = []
            if !kept.isEmpty { held.append("built " + kept.prefix(3).joined(separator: ", ") + (kept.count > 3 ? " and \(kept.count - 3) more" : "")) }
            if !opened.isEmpty { held.append("opened " + opened.joined(separator: ", ")) }
            let built = "override \"\(key)\": the test's container has \(held.joined(separator: " and ")) already, and an override must come before anything is resolved"
            throw LuaError(.runtime, built + (inBeforeEach
                ? "; an earlier before_each (this describe's or an outer one's) resolved: register this before_each before that one "
                  + "(in the same describe), or resolve in the tests instead of in that before_each"
                : "; move it to the top of the test, and if a before_each resolves, override in a before_each registered before "
                  + "that one (for every test of the describe), or resolve in the tests instead of in that before_each"))
        }
        // An override says it overrides (a params-only one changes parameters).
        try table.rawSet("override", .boolean(true))
        var parser = RegistrationParser(catalog: types, keyText: key, origin: origin)
        parser.verb = "override"
        guard let registration = try table.withSlot({ try parser.parse(body: $0, host: self) }).take() else {
            throw LuaError(.runtime, "override \"\(key)\": the registration was taken already")
        }
        // The configuration of this test's overrides: made by the first, named
        // apart from every configuration the script declared.
        let name: String
        if testOverrideBases[current.configuration] != nil {
            name = current.configuration                      // this test overrode something already
        } else {
            let base = current.configuration
            var candidate = base + Self.testOverridesSuffix, number = 1
            while registry.configuration(candidate) != nil {
                number += 1
                candidate = base + " (test overrides \(number))"
            }
            name = candidate
            _ = try registry.defineConfiguration(name, extends: base, origin: origin)
            testOverrideBases[name] = base
        }
        guard let configuration = registry.configuration(name) else {
            throw LuaError(.runtime, "override \"\(key)\": the configuration of this test's overrides is gone")
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
            throw LuaError(.runtime, "override \"\(key)\": closing the test's container failed: \(error)")
        }
        script.container = replacement
        if isDefaultContainer(current) { useContainer(replacement) }
    }

}
