/// A computation started on a thread of its own, whose value the caller
/// waits for when it needs it — for work that needs nothing of what the
/// caller does meanwhile (scanning a source while Lua compiles and runs it).
///
/// ```swift
/// let sites = BackgroundWork { DeclarationSites(source: bytes) }
/// try runScript()
/// let found = sites.value()       // joins the thread
/// ```
///
/// If no thread can be had, the work runs on the calling thread at once.
/// Not `Sendable`: the owner waits for it.
package final class BackgroundWork<Value: Sendable> {
    private let box: Box
    private var thread: pthread_t?

    /// Starts `work` on a thread of its own — or, when `inBackground` is
    /// false (work too small to be worth a thread), does it now.
    package init(inBackground: Bool = true, _ work: @escaping @Sendable () -> Value) {
        let box = Box(.pending(work))
        self.box = box
        if inBackground { thread = Threads.start { box.finish() } } else { box.finish() }
    }

    /// The work's value: waits for its thread to finish it.
    package func value() -> Value {
        join()
        return box.finish()
    }

    private func join() {
        if let thread {
            pthread_join(thread, nil)       // the thread's writes happen before this returns
            self.thread = nil
        }
    }

    deinit { join() }

    /// The work, then its value. Under a lock the compiler can check,
    /// though none waits on it: the work's thread has it until
    /// `pthread_join`, the owner only after.
    private final class Box: Sendable {
        enum State {
            case pending(@Sendable () -> Value)
            case done(Value)
        }
        private let state: Protected<State>
        init(_ state: State) { self.state = Protected(state) }

        /// Does the work unless it is done (dropping it, and what it holds,
        /// as soon as it is), and returns its value.
        @discardableResult
        func finish() -> Value {
            state.withLock { state in
                switch state {
                case .done(let value): return value
                case .pending(let work):
                    let value = work()
                    state = .done(value)
                    return value
                }
            }
        }
    }
}
