/// Threads of their own, with the stack size the work needs: pthreads,
/// because Foundation's `Thread` would add to every start-up.
///
/// ```swift
/// Threads.detach { serve(client) }
/// Threads.runAll(count: 4) { worker in run(worker) }
/// ```
package enum Threads {
    /// Starts `body` on a thread of its own (`stackSize` bytes of stack, or
    /// the system's default); returns the thread to join, or nil if no
    /// thread could be made — `body` has then run on the calling thread.
    package static func start(stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) -> pthread_t? {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
        #if canImport(Darwin)
        var thread: pthread_t?
        let status = pthread_create(&thread, &attributes, { raw in
            Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
            return nil
        }, box)
        if status == 0 { return thread }      // the thread owns the body now
        #else
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { raw in
            guard let raw else { return nil }
            Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
            return nil
        }, box)
        if status == 0 { return thread }
        #endif
        Unmanaged<Body>.fromOpaque(box).takeRetainedValue().run()      // no thread to be had: do the work here
        return nil
    }

    /// Runs `body` on a detached thread of its own.
    package static func detach(_ body: @escaping @Sendable () -> Void) {
        if let thread = start(body) { pthread_detach(thread) }
    }

    /// Runs `body(worker)` for workers `0..<count`, each on a thread of its
    /// own with `stackSize` bytes of stack, and waits for all of them.
    package static func runAll(count: Int, stackSize: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let threads = (0..<count).compactMap { worker in start(stackSize: stackSize) { body(worker) } }
        for thread in threads { pthread_join(thread, nil) }
    }

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
