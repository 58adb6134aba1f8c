import FactoryhostSupport

/// The thread a state belongs to. A `lua_State` is not thread-safe, so code
/// that may be reached from any thread (a registry factory, a protocol
/// adapter) checks it is on the owner's thread before touching Lua.
/// `@unchecked Sendable`: `owner` is read from any thread (`isOnOwnerThread`) and written by
/// `adoptCurrentThread()`; both under `lock`.
final class LuaStateOwnerThread: @unchecked Sendable {
    private let lock = Lock()
    private var owner: pthread_t = pthread_self()

    /// The owner's thread (read from any thread; set by `adoptCurrentThread()`).
    var thread: pthread_t {
        get { lock.withLock { owner } }
        set { lock.withLock { owner = newValue } }
    }

    /// Whether the calling thread is the owner.
    var isCurrent: Bool { pthread_equal(thread, pthread_self()) != 0 }

    /// Throws unless the calling thread is the owner (see ``LuaState/checkOwnerThread(_:)``).
    func check(_ what: @autoclosure () -> String) throws {
        guard isCurrent else {
            throw LuaError(.runtime, "\(what()) was called on another thread: a Lua state runs on the thread that owns it "
                           + "(create the host on the thread that uses it, or call adoptCurrentThread())")
        }
    }
}

extension LuaState {
    /// Whether the calling thread is the one that owns the state.
    public var isOnOwnerThread: Bool { ownerThread.isCurrent }

    /// Makes the calling thread the state's owner (hand a state over between
    /// threads only while no Lua code runs).
    ///
    /// ```swift
    /// DispatchQueue.global().async { lua.adoptCurrentThread(); try? lua.run("print 'hi'", name: "x") }
    /// ```
    public func adoptCurrentThread() { ownerThread.thread = pthread_self() }

    /// Throws unless the calling thread owns the state; `what` names the
    /// caller in the message ("the Lua factory for MovieLoader").
    ///
    /// - Throws: a `LuaError` of kind `.runtime` when called on a thread other than the owner's.
    public func checkOwnerThread(_ what: @autoclosure () -> String) throws {
        try ownerThread.check(what())
    }
}
