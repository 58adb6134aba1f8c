/// A mutex with a condition variable: a thread waits, holding it, until
/// another changes what it waits for and signals.
///
/// ```swift
/// let done = ConditionLock()
/// // worker:  done.withLock { finished = true }; done.signal()
/// // waiter:  _ = done.wait(seconds: 5) { finished }
/// ```
///
/// `@unchecked Sendable`: the mutex and condition live at fixed heap
/// addresses from `init` to `deinit`, and pthread primitives are made to be
/// shared; `wait`'s predicate runs with the mutex held.
package final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` holding the mutex.
    package func withLock<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits, holding the mutex, until `done()` or `seconds` pass (a day at
    /// most; a value that is not finite is a day); returns `done()`.
    package func wait(seconds: Double, until done: () -> Bool) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let wait = seconds.isFinite ? min(max(seconds, 0), 86_400) : 86_400   // never a trap
        let total = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 + wait
        var deadline = timespec(tv_sec: Int(total), tv_nsec: Int((total - total.rounded(.down)) * 1e9))
        while !done() {
            if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { return done() }
        }
        return true
    }

    /// Wakes every waiting thread (after the change they wait for was made under the mutex).
    package func signal() { pthread_cond_broadcast(condition) }
}
