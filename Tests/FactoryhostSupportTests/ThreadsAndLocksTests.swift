import FactoryhostSupport
import Testing

@Suite("Threads and locks")
struct ThreadsAndLocksTests {
    @Test func workersEachRunOnceAndTheirCountsAreAllKept() {
        let counts = Protected([Int](repeating: 0, count: 8))
        Threads.runAll(count: 8, stackSize: 1 << 20) { worker in
            for _ in 0..<1000 { counts.withLock { $0[worker] += 1 } }
        }
        #expect(counts.withLock { $0 } == [Int](repeating: 1000, count: 8))
    }

    @Test func aRecursiveLockCanBeTakenAgain() {
        let lock = Lock(recursive: true)
        #expect(lock.withLock { lock.withLock { 42 } } == 42)
    }

    @Test func aWaiterWakesWhenSignalledAndTimesOutOtherwise() {
        let condition = ConditionLock()
        let done = Protected(false)
        #expect(condition.wait(seconds: 0.05) { done.withLock { $0 } } == false)
        Threads.detach {
            condition.withLock { done.withLock { $0 = true } }
            condition.signal()
        }
        #expect(condition.wait(seconds: 10) { done.withLock { $0 } })
        #expect(condition.wait(seconds: .nan) { true })        // a wait that is not finite is no trap
    }

    /// Background work runs on another thread, its value is there when
    /// asked for (asked twice, the same), and work done at once needs no thread.
    @Test func backgroundWorkGivesItsValueOnceDone() {
        let caller = pthread_self()
        let started = Protected(false)
        let work = BackgroundWork { () -> Bool in
            started.withLock { $0 = true }
            return pthread_equal(pthread_self(), caller) == 0       // on a thread of its own
        }
        #expect(work.value() == true)
        #expect(work.value() == true)
        #expect(started.withLock { $0 })
        let now = BackgroundWork(inBackground: false) { pthread_equal(pthread_self(), caller) != 0 }
        #expect(now.value() == true)
        // Dropped without being asked: its thread is still waited for, not left running.
        let finished = Protected(0)
        do { _ = BackgroundWork { usleep(20_000); finished.withLock { $0 += 1 } } }
        #expect(finished.withLock { $0 } == 1)
    }
}
