/// The strongly connected components of registrations' instance
/// dependencies, each given once all it depends on has been (Tarjan's
/// algorithm, with an explicit stack: a chain of any depth costs no native
/// stack). What ranks registrations (``ConfigurationValidation``) and what
/// finds the scopes they reach (``ScopesReached``) both walk them so.
///
/// ```swift
/// DependencyComponents.visit(registrations, from: 0, follows: { _ in true }) { members in … }
/// ```
enum DependencyComponents {
    /// Gives `visit` each component of the registrations from `start` on
    /// that `follows` accepts — dependencies first. A dependency before
    /// `start`, or one `follows` refuses, is taken as finished.
    static func visit(_ registrations: [PlannedRegistration], from start: Int, follows: (Int) -> Bool,
                      _ visit: (_ members: ArraySlice<Int>) -> Void) {
        let count = registrations.count
        guard count > start else { return }
        // Indexed from `start`.
        var order = [Int32](repeating: -1, count: count - start)    // discovery order; -1 not yet seen
        var lowest = [Int32](repeating: 0, count: count - start)
        var onStack = [Bool](repeating: false, count: count - start)
        var component: [Int] = []
        var counter: Int32 = 0
        for root in start..<count where follows(root) && order[root - start] < 0 {
            var calls: [(node: Int, next: Int)] = []
            func enter(_ node: Int) {
                order[node - start] = counter
                lowest[node - start] = counter
                counter += 1
                component.append(node)
                onStack[node - start] = true
                calls.append((node, 0))
            }
            enter(root)
            while let top = calls.last {
                let edges = registrations[top.node].instanceDependencies
                if top.next < edges.count {
                    calls[calls.count - 1].next += 1
                    let target = edges[top.next]
                    guard target >= start, follows(target) else { continue }
                    if order[target - start] < 0 {
                        enter(target)
                    } else if onStack[target - start] {
                        lowest[top.node - start] = min(lowest[top.node - start], order[target - start])
                    }
                    continue
                }
                calls.removeLast()
                if let caller = calls.last {
                    lowest[caller.node - start] = min(lowest[caller.node - start], lowest[top.node - start])
                }
                guard lowest[top.node - start] == order[top.node - start] else { continue }
                // top.node roots a component: it and what is above it on the stack (no array made per component).
                var from = component.count - 1
                while component[from] != top.node { from -= 1 }
                for member in component[from...] { onStack[member - start] = false }
                visit(component[from...])
                component.removeSubrange(from...)
            }
        }
    }
}
