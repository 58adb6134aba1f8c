import FactoryRegistry
import LuaBridge
import Testing
@testable import FactoryScripting

/// The mechanism behind a test's `override "Key" { … }`, as an embedder uses
/// it: a script container replaced by one of a derived configuration, and
/// each refusal as a value the caller words. Observing what scripts build too.
@Suite("Overriding a script container's registration; observing builds")
struct ContainerOverrideTests {
    @Test func anOverrideReplacesTheContainerAndRefusalsAreValues() throws {
        let host = try FactoryHost()
        var built: [String] = []
        host.onScriptBuild = { container, registration in
            built.append("\(container.configuration) \(registration.key) \(registration.origin.line)")
        }
        try host.run("""
            configuration "app" {
              register "string#word" { make = function() return "real" end },
              register "string#kept" { scope = "singleton", make = function() return "kept" end },
            }
            c = container "app"
            """, name: "app.lua")
        let containerValue = try host.lua.global("c")
        let body = try host.lua.run("return { make = function() return 'fake' end }", name: "=t").first ?? .nil
        var derived: [String: String] = [:]
        try host.override(in: containerValue, key: "string#word", body: body, origin: Origin(file: "t.lua", line: 9),
                          derived: &derived, namedWith: " (overrides)")
        #expect(derived == ["app (overrides)": "app"])
        #expect(try host.lua.run("return c:resolve 'string#word' == 'fake' and c.configuration == 'app (overrides)'", name: "=t").first == .boolean(true))
        #expect(built == ["app (overrides) string#word 9"])
        // Once it has kept something, the container refuses: a value to word, not a message.
        _ = try host.lua.run("return c:resolve 'string#kept'", name: "=t")
        let again = try host.lua.run("return { make = function() return 'x' end }", name: "=t").first ?? .nil
        #expect(throws: OverrideRefusal.containerHolds(built: ["string#kept"], opened: [])) {
            try host.override(in: containerValue, key: "string#word", body: again, origin: Origin(file: "t.lua", line: 10),
                              derived: &derived, namedWith: " (overrides)")
        }
        #expect(throws: OverrideRefusal.noContainer) {
            try host.override(in: .nil, key: "string#word", body: again, origin: Origin(file: "t.lua", line: 11),
                              derived: &derived, namedWith: " (overrides)")
        }
        #expect(throws: OverrideRefusal.notABody(typeName: "string")) {
            try host.override(in: containerValue, key: "string#word", body: "make", origin: Origin(file: "t.lua", line: 12),
                              derived: &derived, namedWith: " (overrides)")
        }
    }
}
