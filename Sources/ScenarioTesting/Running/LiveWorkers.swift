import FactoryhostSupport

/// The worker processes running now, across the runner's threads: when
/// `--fail-fast` stops the run, the others are ended at once (their tests
/// stopped, not run) instead of being waited for — a test with a day's
/// limit kept the run going for a day.
///
/// ```swift
/// let live = LiveWorkers()
/// live.add(worker)
/// live.endAll(except: worker)        // a test failed, with --fail-fast
/// live.wasEnded(other)               // true: its running test is not reported
/// ```
// @unchecked Sendable: `workers` and `ended` only under `lock`; a WorkerProcess
// is touched from another thread only through `end()`, which reads its pid (a let) and sends a signal.
final class LiveWorkers: @unchecked Sendable {
    private let lock = Lock()
    private var workers: [ObjectIdentifier: WorkerProcess] = [:]
    private var ended: Set<ObjectIdentifier> = []

    /// Lists a worker as running.
    func add(_ worker: WorkerProcess) {
        lock.withLock { workers[ObjectIdentifier(worker)] = worker }
    }

    /// Unlists a worker that has ended.
    func remove(_ worker: WorkerProcess) {
        lock.withLock {
            workers[ObjectIdentifier(worker)] = nil
            ended.remove(ObjectIdentifier(worker))
        }
    }

    /// Ends every listed worker but `kept` (its process group goes with it when it is waited for).
    func endAll(except kept: WorkerProcess?) {
        lock.withLock {
            for (id, worker) in workers where worker !== kept && !ended.contains(id) {
                ended.insert(id)
                worker.end()
            }
        }
    }

    /// Whether `worker` was ended by ``endAll(except:)``.
    func wasEnded(_ worker: WorkerProcess) -> Bool {
        lock.withLock { ended.contains(ObjectIdentifier(worker)) }
    }
}
