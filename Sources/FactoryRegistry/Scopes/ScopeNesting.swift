import FactoryhostSupport

/// Which declared scopes nest in which, answered in constant time: each
/// scope's place in a depth-first walk of the scope forest (entered, left),
/// so `inner` is within `outer` exactly when its interval lies in
/// `outer`'s. Walking up the parents instead cost the depth of the nesting
/// per question — quadratic when `check` asked it of every holder in a
/// 16,000-deep chain of scopes (15 s).
///
/// ```swift
/// let nesting = ScopeNesting(["session": session, "screen": screen])
/// nesting.scope("screen", isWithin: "session")    // true
/// ```
final class ScopeNesting: Sendable {
    private let entered: [String: Int]
    private let left: [String: Int]

    /// The nesting of `scopes` (each parent declared, as the registry
    /// ensures); a scope on a cycle or under an undeclared parent is in
    /// no interval, and is within only itself.
    init(_ scopes: [String: ScopeDeclaration]) {
        var children: [String: [String]] = [:]
        var roots: [String] = []
        for (name, declaration) in scopes {
            if let parent = declaration.parent, scopes[parent] != nil { children[parent, default: []].append(name) } else { roots.append(name) }
        }
        var entered: [String: Int] = [:], left: [String: Int] = [:]
        var clock = 0
        // Iterative: a nesting as deep as the declarations, without recursion.
        var stack: [(name: String, next: Int)] = roots.map { ($0, -1) }
        while let top = stack.last {
            if top.next == -1 {
                entered[top.name] = clock
                clock += 1
            }
            let kids = children[top.name] ?? []
            let next = top.next + 1
            if next < kids.count {
                stack[stack.count - 1].next = next
                stack.append((kids[next], -1))
            } else {
                left[top.name] = clock
                clock += 1
                stack.removeLast()
            }
        }
        self.entered = entered
        self.left = left
    }

    /// Whether `inner` is `outer` or nests (at any depth) within it.
    func scope(_ inner: String, isWithin outer: String) -> Bool {
        if inner == outer { return true }
        guard let innerIn = entered[inner], let innerOut = left[inner],
              let outerIn = entered[outer], let outerOut = left[outer] else { return false }
        return outerIn < innerIn && innerOut < outerOut
    }
}
