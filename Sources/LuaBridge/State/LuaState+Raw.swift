import CLua
import CLuaShim

extension LuaState {
    /// Runs `body` with the raw `lua_State` of the thread Swift works on —
    /// an escape hatch for hosts that register plain `lua_CFunction`s. The
    /// embedding rules are then yours to keep: call nothing that can raise a
    /// Lua error, and leave the stack as you found it.
    ///
    /// ```swift
    /// import CLua
    /// let increment: lua_CFunction = { L in lua_pushinteger(L, lua_tointegerx(L, 1, nil) + 1); return 1 }
    /// try lua.withRawState { L in
    ///     lua_pushcclosure(L, increment, 0)
    ///     lua_setglobal(L, "increment")
    /// }
    /// ```
    public func withRawState<R>(_ body: (OpaquePointer) throws -> R) throws -> R {
        try body(thread())
    }
}
