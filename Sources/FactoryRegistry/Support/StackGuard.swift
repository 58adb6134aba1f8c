import CActiveResolve
import CStackBounds

/// Knows where the current thread's stack ends, so a pathologically deep
/// resolve fails with an error instead of overflowing — without capping the
/// depth of graphs that fit.
enum StackGuard {
    /// Room kept free below the deepest resolve: one more level of factory
    /// code (a script factory runs the Lua VM) must still fit. A quarter of
    /// the stack on threads whose stack is smaller than 768 KiB.
    static let reserve: UInt = 192 * 1024

    /// The address below which a resolve on this thread fails with `.tooDeep`.
    static func floor() -> UInt {
        let known = UInt(fh_stack_floor(UInt(reserve)))
        if known != 0 { return known }
        // Unknown bound: allow 256 KiB below the outermost resolve on this thread.
        if let enclosing = fh_active_state() {
            return enclosing.assumingMemoryBound(to: ResolutionState.self).pointee.stackFloor
        }
        return currentStackAddress() &- 256 * 1024
    }
}

/// An address on the caller's stack: the machine's own stack pointer, read
/// in C. (The address of a local would do, except under ASan's
/// use-after-return checks, which move locals to a "fake stack" on the heap
/// — the guard then fired on every resolve.)
@usableFromInline @inline(__always)
func currentStackAddress() -> UInt {
    UInt(fh_stack_address())
}
