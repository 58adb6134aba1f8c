import FactoryRegistry
import FactoryScripting
import LuaBridge

/// `override "HTTPSession" { make = … }` in a test or its hooks: the test's
/// container is replaced by one of a configuration that extends the test's
/// with that registration (``FactoryHost/override(in:key:body:origin:derived:namedWith:)``),
/// gone with the test (declarations made in a test are forgotten after it).
/// This keeps the configurations a file's tests made, and says a refusal in
/// the runner's words: the test, its hooks, what to move.
///
/// ```lua
/// it("times out", function(c)
///   override "HTTPSession" { scope = "singleton", make = function() return net.HTTPSession.new { baseURL = "fixture://slow" } end }
///   expect(c:resolve("MovieLoader").session.baseURL):to_be("fixture://slow")
/// end)
/// ```
final class TestOverrides {
    /// Named after the test's configuration: `app (test overrides)`.
    static let suffix = " (test overrides)"
    /// The configurations overrides made, each to the one it extends.
    private(set) var bases: [String: String] = [:]

    /// The configuration `name` counts as in reports: the one an overrides'
    /// configuration extends, or itself.
    func base(of name: String) -> String { bases[name] ?? name }

    /// Overrides `key` for the test whose container `testContainer` is.
    /// `inBeforeEach`: the override is in a `before_each` hook (the advice
    /// on a refusal differs: the hook to move is another).
    ///
    /// - Throws: a `LuaError` saying why not, in a test's words; a `RegistryError` for a bad registration.
    func override(in host: FactoryHost, _ testContainer: LuaValue, key: String, body: LuaValue, origin: Origin,
                  inBeforeEach: Bool) throws {
        do {
            try host.override(in: testContainer, key: key, body: body, origin: origin, derived: &bases, namedWith: Self.suffix)
        } catch let refusal as OverrideRefusal {
            throw LuaError(.runtime, Self.message(refusal, key: key, inBeforeEach: inBeforeEach))
        }
    }

    private static func message(_ refusal: OverrideRefusal, key: String, inBeforeEach: Bool) -> String {
        switch refusal {
        case .noContainer:
            return "override \"\(key)\": this test has no container (give its describe or it a config, or run with --config)"
        case .notABody(let typeName):
            return "bad argument #1 to 'override \"\(key)\"' (table (override \"\(key)\" { make = function() … end }) expected, got \(typeName))"
        case .factoryBuilding:
            return "override \"\(key)\": not while a factory is building (a registration cannot change under its own resolve)"
        case .containerHolds(let kept, let opened):
            // "has built Cache", "has opened scope 'basket'": what it holds, in the words that fit.
            var held: [String] = []
            if !kept.isEmpty { held.append("built " + kept.prefix(3).joined(separator: ", ") + (kept.count > 3 ? " and \(kept.count - 3) more" : "")) }
            if !opened.isEmpty { held.append("opened " + opened.joined(separator: ", ")) }
            let built = "override \"\(key)\": the test's container has \(held.joined(separator: " and ")) already, and an override must come before anything is resolved"
            return built + (inBeforeEach
                ? "; an earlier before_each (this describe's or an outer one's) resolved: register this before_each before that one "
                  + "(in the same describe), or resolve in the tests instead of in that before_each"
                : "; move it to the top of the test, and if a before_each resolves, override in a before_each registered before "
                  + "that one (for every test of the describe), or resolve in the tests instead of in that before_each")
        }
    }
}
