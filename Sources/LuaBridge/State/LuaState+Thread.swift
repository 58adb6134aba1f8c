#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The thread a state belongs to. A `lua_State` is not thread-safe, so code
/// that may be reached from any thread (a registry factory, a protocol
/// adapter) checks it is on the owner's thread before touching Lua.
final class LuaStateOwnerThread: @unchecked Sendable {
    var thread: pthread_t = pthread_self()
}

extension LuaState {
    /// Whether the calling thread is the one that owns the state.
    public var isOnOwnerThread: Bool { pthread_equal(ownerThread.thread, pthread_self()) != 0 }

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
        guard isOnOwnerThread else {
            throw LuaError(.runtime, "\(what()) was called on another thread: a Lua state runs on the thread that owns it "
                           + "(create the host on the thread that uses it, or call adoptCurrentThread())")
        }
    }
}
