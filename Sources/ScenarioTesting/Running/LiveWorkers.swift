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
/// live.leave(other)                  // true: its running test is not reported
/// ```
final class LiveWorkers: Sendable {
    private struct State {
        /// Each running worker's process id, by the worker's identity.
        var running: [ObjectIdentifier: pid_t] = [:]
        var ended: Set<ObjectIdentifier> = []
    }
    private let state = Protected(State())

    /// Lists a worker as running.
    func add(_ worker: WorkerProcess) {
        let id = ObjectIdentifier(worker), pid = worker.pid
        state.withLock { $0.running[id] = pid }
    }

    /// Unlists a worker that has ended.
    func remove(_ worker: WorkerProcess) {
        let id = ObjectIdentifier(worker)
        state.withLock {
            $0.running[id] = nil
            $0.ended.remove(id)
        }
    }

    /// Ends every listed worker but `kept` (its process group goes with it when it is waited for).
    func endAll(except kept: WorkerProcess?) {
        let keptID = kept.map(ObjectIdentifier.init)
        state.withLock { state in
            for (id, pid) in state.running where id != keptID && !state.ended.contains(id) {
                state.ended.insert(id)
                _ = kill(pid, SIGKILL)
            }
        }
    }

    /// Unlists a worker about to be waited for (once reaped, its process id
    /// may be another process's), and says whether ``endAll(except:)`` ended it.
    func leave(_ worker: WorkerProcess) -> Bool {
        let id = ObjectIdentifier(worker)
        return state.withLock {
            $0.running[id] = nil
            return $0.ended.remove(id) != nil
        }
    }
}
