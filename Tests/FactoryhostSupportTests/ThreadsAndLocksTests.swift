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
}
