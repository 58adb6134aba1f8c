import Testing
@testable import FactoryRegistry

/// A container's open scopes stay in the order opened, and the newest of
/// each name is the one found, whatever order they close in — checked against
/// a plain array over many random opens and closes.
@Suite("Open scopes, closed in any order")
struct OpenScopesTests {
    @Test func anyOrderOfClosingKeepsTheListAndTheNewestOfEachName() throws {
        let registry = Registry()
        for name in ["request", "session", "job"] { try registry.declareScope(name) }
        _ = try registry.defineConfiguration("app")
        let container = try registry.container("app")
        var model: [ScopeHandle] = []
        var generator = SplitMix(seed: 7)
        for step in 0..<3_000 {
            if model.isEmpty || generator.next() % 3 != 0 {
                let name = ["request", "session", "job"][Int(generator.next() % 3)]
                model.append(try container.openScope(name))
            } else {
                let victim = model.remove(at: Int(generator.next() % UInt64(model.count)))
                try victim.close()
            }
            if step % 97 == 0 {
                #expect(container.scopesOpenNow().map(ObjectIdentifier.init) == model.map(ObjectIdentifier.init), "step \(step)")
            }
            for name in ["request", "session", "job"] {
                #expect(container.activeScope(named: name) === model.last { $0.name == name }, "step \(step): \(name)")
            }
        }
        for handle in model.reversed() { try handle.close() }
        #expect(container.openScopeNames.isEmpty && container.activeScope(named: "request") == nil)
    }

    /// 40,000 request scopes open, closed oldest first (a server's order):
    /// each close unlists one without searching or shifting the others.
    @Test func manyOpenScopesCloseOneByOne() throws {
        let registry = Registry()
        try registry.declareScope("request")
        _ = try registry.defineConfiguration("app")
        let container = try registry.container("app")
        let open = try (0..<40_000).map { _ in try container.openScope("request") }
        for handle in open { try handle.close() }
        #expect(container.openScopeNames.isEmpty)
    }
}

/// A small deterministic generator (the same run every time).
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
