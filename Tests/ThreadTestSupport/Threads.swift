import Foundation

// What tests that race real threads share (ExamplePluginsTests and
// FactoryScriptingTests): threads that start together, and counters and
// lists they fill under a lock.

/// Runs `body(index)` on `count` real threads that start together, and waits for them all.
/// (Real threads: a dispatch pool on two cores would run only two at a time.)
package func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let start = DispatchSemaphore(value: 0), done = DispatchGroup()
    for index in 0..<count {
        done.enter()
        Thread {
            start.wait()
            body(index)
            done.leave()
        }.start()
    }
    for _ in 0..<count { start.signal() }
    done.wait()
}

/// Counts the threads add up (`@unchecked Sendable`: `counts` only under `lock`).
package final class Tally: @unchecked Sendable {
    package init() {}
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    package func add(_ more: [String: Int]) { lock.withLock { counts.merge(more, uniquingKeysWith: +) } }
    package subscript(_ name: String) -> Int { lock.withLock { counts[name, default: 0] } }
}

/// Values the threads append (`@unchecked Sendable`: `storage` only under `lock`).
package final class Collected<Value>: @unchecked Sendable {
    package init() {}
    private let lock = NSLock()
    private var storage: [Value] = []
    package func append(_ value: Value) { lock.withLock { storage.append(value) } }
    package var values: [Value] { lock.withLock { storage } }
}
