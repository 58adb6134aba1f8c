import CActiveResolve

/// A script's scopes are a stack: `c:resolve` takes the newest open scope of
/// a name, and after it closes the one before it. A Swift resolve from a
/// container never picks among several (see ``ScopeHandle/withCurrent(_:)``);
/// the script layer runs each script call in ``stacked(_:)``.
///
/// ```swift
/// let value = try ScriptScopes.stacked { try container.resolveAny(key) }
/// ```
package enum ScriptScopes {
    /// Runs `body` with scopes stacking on this thread.
    @inline(__always)
    package static func stacked<R>(_ body: () throws -> R) rethrows -> R {
        let previous = fh_set_scopes_stack(1)
        defer { _ = fh_set_scopes_stack(previous) }
        return try body()
    }
}
