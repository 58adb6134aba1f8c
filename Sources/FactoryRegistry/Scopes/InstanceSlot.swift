import FactoryhostSupport
/// Where a container keeps one singleton or weak instance. Reads take the
/// slot's own lock; creation happens under the container's creation lock,
/// so a singleton is built exactly once however many threads ask.
// @unchecked Sendable: `strong`/`weakObject` under `lock`; `isBeingBuilt` under the container's `creationLock`.
final class InstanceSlot: @unchecked Sendable {
    private let lock = Lock()
    private var strong: Any?
    private weak var weakObject: AnyObject?
    let isWeak: Bool
    /// Its instance is being built now (read and written under the
    /// container's creation lock): asked for again meanwhile, it is a cycle.
    var isBeingBuilt = false

    init(weak: Bool) { isWeak = weak }

    var value: Any? {
        lock.withLock { isWeak ? weakObject : strong }
    }

    /// Empties the slot, returning what it held strongly (a container closing).
    func take() -> Any? {
        lock.withLock {
            defer { strong = nil; weakObject = nil }
            return strong
        }
    }

    func store(_ value: Any) {
        lock.withLock {
            if isWeak { weakObject = value as AnyObject } else { strong = value }
        }
    }
}
