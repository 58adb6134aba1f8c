import Testing
@testable import FactoryRegistry

/// Which scopes nest in which, as captive checks ask it: at any depth, and
/// never across branches.
@Suite("Scope nesting")
struct ScopeNestingTests {
    static func declarations(_ pairs: [(String, String?)]) -> [String: ScopeDeclaration] {
        Dictionary(uniqueKeysWithValues: pairs.map { ($0.0, ScopeDeclaration(name: $0.0, parent: $0.1, origin: Origin(file: "t.lua", line: 1))) })
    }

    @Test func nestingAtAnyDepthAndNeverAcrossBranches() {
        let nesting = ScopeNesting(Self.declarations([("app", nil), ("session", "app"), ("screen", "session"),
                                                      ("dialog", "screen"), ("job", "app"), ("other", nil)]))
        #expect(nesting.scope("dialog", isWithin: "session"))
        #expect(nesting.scope("dialog", isWithin: "app"))
        #expect(nesting.scope("screen", isWithin: "screen"))
        #expect(!nesting.scope("session", isWithin: "screen"))     // outward is not within
        #expect(!nesting.scope("job", isWithin: "session"))        // a sibling branch
        #expect(!nesting.scope("dialog", isWithin: "job"))
        #expect(!nesting.scope("dialog", isWithin: "other"))       // another tree
        #expect(!nesting.scope("dialog", isWithin: "nowhere") && !nesting.scope("nowhere", isWithin: "app"))
    }

    /// 100,000 deep: built without recursion, answered both ways.
    @Test func aVeryDeepNesting() {
        let depth = 100_000
        let nesting = ScopeNesting(Self.declarations((0..<depth).map { ("s\($0)", $0 == 0 ? nil : "s\($0 - 1)") }))
        #expect(nesting.scope("s\(depth - 1)", isWithin: "s0"))
        #expect(nesting.scope("s\(depth - 1)", isWithin: "s\(depth / 2)"))
        #expect(!nesting.scope("s0", isWithin: "s1"))
        #expect(!nesting.scope("s\(depth / 2)", isWithin: "s\(depth - 1)"))
    }
}
