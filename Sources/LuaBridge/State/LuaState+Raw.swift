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
    ///
    /// - Throws: a `LuaError` of kind `.closed` when the state is closed, or what `body` throws.
    public func withRawState<R>(_ body: (OpaquePointer) throws -> R) throws -> R {
        try body(thread())
    }

    /// A Lua function for a plain `lua_CFunction` with no upvalues: C code
    /// written against Lua's API, which may raise Lua errors (it is C).
    /// Calling it goes through a protected call like any ``LuaFunction``.
    ///
    /// ```swift
    /// import CLua
    /// let count: lua_CFunction = { L in lua_pushinteger(L, lua_Integer(lua_gettop(L))); return 1 }
    /// let f = try lua.function(cFunction: count)
    /// let n = try f.call(1, 2, 3)          // [3]
    /// ```
    ///
    /// - Throws: a `LuaError` of kind `.closed` when the state is closed.
    public func function(cFunction: lua_CFunction) throws -> LuaFunction {
        let L = try thread()
        lua_pushcclosure(L, cFunction, 0)
        return try popFunction(L)
    }

    /// Closes `value` as its owner lets it go: its `__close` metamethod
    /// (read from the real metatable, called with nil as the error, as a
    /// to-be-closed variable's is), or else, for a table, `value:close()`.
    /// Returns whether it had either; what they raise is thrown.
    ///
    /// ```swift
    /// let log = try lua.run("return { close = function(self) print('closed') end }", name: "x")[0]
    /// try lua.close(log)        // prints "closed"; true
    /// ```
    ///
    /// - Throws: the `LuaError` the `__close` metamethod or `close` method raises (message and traceback), or
    ///   `.closed` when the state is closed or `value` belongs to another state.
    @discardableResult
    public func close(_ value: LuaValue) throws -> Bool {
        switch value {
        case .table, .userdata: return try function(cFunction: fh_close_value).call(value).first == .boolean(true)
        default: return false
        }
    }
}
