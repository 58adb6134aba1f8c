import FactoryhostSupport

/// The declared scopes and what follows from them: which nest in which, and
/// which holder may keep which scoped instance. One per plan at run time;
/// one for every configuration when `check` validates them all (the scopes
/// are the registry's, not a configuration's).
///
/// ```swift
/// let rules = ScopeRules(["session": session, "screen": screen])
/// rules.scope("screen", isWithin: "session")    // true
/// ```
final class ScopeRules: Sendable {
    let scopes: [String: ScopeDeclaration]
    /// Which of `scopes` nest in which, made at the first question (most
    /// plans never ask: they have no custom scopes, or nothing to check).
    private let nesting = Protected<ScopeNesting?>(nil)

    init(_ scopes: [String: ScopeDeclaration]) {
        self.scopes = scopes
    }

    /// Whether scope `inner` is `outer` or nested (at any depth) inside it.
    func scope(_ inner: String, isWithin outer: String) -> Bool {
        // A few steps up the parents first: the common, shallow nesting needs
        // no table (and no lock) — a resolve's captive check asks this.
        var cursor = inner
        for _ in 0..<8 {
            if cursor == outer { return true }
            guard let parent = scopes[cursor]?.parent else { return false }
            cursor = parent
        }
        let nesting = self.nesting.withLock { made in
            if let made { return made }
            let built = ScopeNesting(scopes)
            made = built
            return built
        }
        return nesting.scope(inner, isWithin: outer)
    }

    /// Whether an instance of `holder` may keep an instance of custom scope
    /// `scope` for its whole life. Nil if it may; else why not.
    func captiveReason(holder: PlannedRegistration, scope: String) -> String? {
        guard mayNotKeep(scope, lifetime: holder.lifetime) else { return nil }
        if case .custom(let holderScope) = holder.lifetime {
            return "\(holderScope)-scoped \(holder.name) would keep \(scope)-scoped instances after their scope closes"
        }
        return "\(holder.lifetime.description) \(holder.name) would keep \(scope)-scoped instances after their scope closes"
    }

    /// Whether an instance of `lifetime` may not keep one of `scope` for
    /// its whole life (``captiveReason(holder:scope:)`` would give a reason).
    func mayNotKeep(_ scope: String, lifetime: Scope) -> Bool {
        switch lifetime {
        case .transient, .graph: return false
        case .singleton, .weak: return true
        case .custom(let holderScope): return !self.scope(holderScope, isWithin: scope)
        }
    }

    /// The last line of a captive dependency's report: the two ways out.
    static func captiveFix(holder: PlannedRegistration, captured: PlannedRegistration, scope: String) -> String {
        "to fix: make \(holder.name) \(scope)-scoped (or scoped within it), or have it depend on a provider on the way to "
            + "\(captured.name) (deps = { x = provider \"\(captured.name)\" }; in Swift .provider(…)): it resolves when called, in the scope open then"
    }
}
