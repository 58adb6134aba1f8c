/// A pthread mutex (optionally recursive): small and Foundation-free, so a
/// module that needs one adds nothing to start-up. (Swift's
/// `Synchronization.Mutex` needs macOS 15; the package supports macOS 13.)
///
/// ```swift
/// let lock = Lock()
/// let count = lock.withLock { counter += 1; return counter }
/// ```
///
/// `@unchecked Sendable`: the mutex lives at a fixed heap address from
/// `init` to `deinit`, and a pthread mutex is made to be shared by threads.
package final class Lock: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// A mutex; a `recursive` one may be taken again by the thread holding it.
    package init(recursive: Bool = false) {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        if recursive { pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE)) }
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Takes the lock (when a block cannot hold it for its whole span).
    @inlinable @inline(__always)
    package func lock() { pthread_mutex_lock(mutex) }

    /// Gives the lock back.
    @inlinable @inline(__always)
    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` holding the lock.
    @inlinable @inline(__always)
    package func withLock<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A value shared by threads, read and changed only under its lock.
///
/// ```swift
/// let results = Protected<[Int]>([])
/// results.withLock { $0.append(42) }
/// ```
///
/// `@unchecked Sendable`: `value` is reached only inside `withLock`, and is
/// itself `Sendable`.
package final class Protected<Value: Sendable>: @unchecked Sendable {
    private var value: Value
    private let lock = Lock()

    package init(_ value: Value) { self.value = value }

    /// Runs `body` on the value, holding the lock.
    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try lock.withLock { try body(&value) }
    }
}
