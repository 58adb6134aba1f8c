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

/// An address on the caller's stack.
@usableFromInline @inline(never)
func currentStackAddress() -> UInt {
    var marker: UInt8 = 0
    return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
}
