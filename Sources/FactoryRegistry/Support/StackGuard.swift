import CStackBounds

/// Knows where the current thread's stack ends, so a pathologically deep
/// resolve fails with an error instead of overflowing — without capping the
/// depth of graphs that fit.
enum StackGuard {
    /// Room kept free below the deepest resolve: one more level of factory
    /// code (a script factory runs the Lua VM) must still fit.
    static let reserve: UInt = 192 * 1024

    /// The lowest usable stack address of this thread (0 if unknown).
    @inline(__always)
    static func lowBound() -> UInt { UInt(fh_stack_low_bound()) }
}

/// An address on the caller's stack.
@inline(never)
func currentStackAddress() -> UInt {
    var marker: UInt8 = 0
    return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
}
