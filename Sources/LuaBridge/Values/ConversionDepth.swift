import CStackBounds

/// Stops a conversion that follows tables into tables (an array of structs
/// holding arrays…) before it runs out of stack: a table a script built may
/// be nested 100,000 deep, or contain itself.
enum ConversionDepth {
    /// Room kept below the deepest conversion (the registry's depth guard keeps the same).
    static let reserve: UInt = 192 * 1024

    /// - Throws: a `LuaError` (`.typeMismatch`, problem `.nestedTooDeeply`) when this thread's stack is nearly used up.
    static func check(_ what: @autoclosure () -> String) throws {
        let floor = UInt(fh_stack_floor(reserve))
        guard floor != 0, UInt(fh_stack_address()) < floor else { return }
        var error = LuaError(.typeMismatch, "\(what()) nested too deeply to convert (a table that contains itself, "
                                            + "or thousands of levels)")
        error.problem = .nestedTooDeeply
        throw error
    }
}
