#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `body(worker)` on `count` threads of their own (with stacks big
/// enough for deep Lua and Swift recursion) and waits for all of them.
enum WorkerThreads {
    static func run(count: Int, stackSize: Int = 16 << 20, _ body: @escaping @Sendable (Int) -> Void) {
        var threads: [pthread_t] = []
        for worker in 0..<count {
            let box = Unmanaged.passRetained(Task(body: body, worker: worker)).toOpaque()
            var attributes = pthread_attr_t()
            pthread_attr_init(&attributes)
            pthread_attr_setstacksize(&attributes, stackSize)
            #if canImport(Darwin)
            var thread: pthread_t?
            let status = pthread_create(&thread, &attributes, { raw in
                Unmanaged<Task>.fromOpaque(raw).takeRetainedValue().start()
                return nil
            }, box)
            if status == 0, let thread { threads.append(thread) } else { Unmanaged<Task>.fromOpaque(box).takeRetainedValue().start() }
            #else
            var thread = pthread_t()
            let status = pthread_create(&thread, &attributes, { raw in
                guard let raw else { return nil }
                Unmanaged<Task>.fromOpaque(raw).takeRetainedValue().start()
                return nil
            }, box)
            // No thread to be had: do the work here instead.
            if status == 0 { threads.append(thread) } else { Unmanaged<Task>.fromOpaque(box).takeRetainedValue().start() }
            #endif
            pthread_attr_destroy(&attributes)
        }
        for thread in threads { pthread_join(thread, nil) }
    }

    private final class Task {
        let body: @Sendable (Int) -> Void
        let worker: Int
        init(body: @escaping @Sendable (Int) -> Void, worker: Int) {
            self.body = body
            self.worker = worker
        }
        func start() { body(worker) }
    }
}

/// A mutex around a value shared by the workers.
/// `@unchecked Sendable`: `value` is read and written only inside `withLock`.
final class Shared<Value: Sendable>: @unchecked Sendable {
    private var value: Value
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
