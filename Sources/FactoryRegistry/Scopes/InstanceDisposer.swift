/// What a container does with an instance it lets go — when a scope holding
/// it closes, or the container itself — that is not ``ScopeBound``: a
/// script host closes Lua objects with one (their `__close` or `close`).
/// Errors it throws are collected and reported by the `close()` that let
/// the instance go; they never stop the other instances from closing.
///
/// ```swift
/// final class Closer: InstanceDisposer {
///     func dispose(_ instance: Any) throws { (instance as? FileLog)?.flush() }
/// }
/// let closer = Closer()
/// let container = try registry.container("app", disposer: closer)   // held weakly
/// ```
public protocol InstanceDisposer: AnyObject {
    /// Releases `instance`, which a closing container or scope no longer holds (newest first).
    ///
    /// - Throws: what releasing it raised; the close goes on with the others and reports a ``RegistryError/Kind-swift.enum/disposalFailed`` error.
    func dispose(_ instance: Any) throws
    /// The container closed (after its instances were disposed of): what
    /// was remembered of its singletons is no longer true. Optional.
    func containerDidClose(_ container: Container)
}

extension InstanceDisposer {
    /// Does nothing: a disposer that remembers nothing of a container needs no notice.
    public func containerDidClose(_ container: Container) {}
}

/// Instances that failed to close, for the error ``ScopeHandle/close()`` and
/// ``Container/close()`` throw.
struct DisposalFailures {
    private(set) var lines: [String] = []
    private(set) var firstOrigin: Origin?

    /// Tells `instance` (built by `registration`) it was let go: a
    /// ``ScopeBound`` instance hears it, anything else goes to `disposer`.
    mutating func dispose(_ instance: Any, registration: Registration?, disposer: (any InstanceDisposer)?) {
        do {
            if let bound = instance as? any ScopeBound {
                try bound.scopeDidClose()
            } else {
                try disposer?.dispose(instance)
            }
        } catch {
            let what = registration.map { "\($0.key) (\($0.origin))" } ?? "an instance"
            lines.append("\(what): \(error)")
            if firstOrigin == nil { firstOrigin = registration?.origin }
        }
    }

    /// A child container's close that failed: its lines join these.
    mutating func append(_ error: any Error) {
        guard let error = error as? RegistryError else { return lines.append("\(error)") }
        lines += error.details.isEmpty ? [error.message] : error.details
        if firstOrigin == nil { firstOrigin = error.origin }
    }

    /// The error to throw for closing `what` (nil when nothing failed).
    func error(closing what: String, configuration: String?) -> RegistryError? {
        guard !lines.isEmpty else { return nil }
        let count = lines.count == 1 ? "an instance" : "\(lines.count) instances"
        return RegistryError(.disposalFailed, "closing \(what): \(count) failed to close (every other one was closed)",
                             configuration: configuration, details: lines, origin: firstOrigin)
    }
}
