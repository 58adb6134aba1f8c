import CLua
import CLuaShim

extension LuaFunction {
    /// Calls the function with arguments pushed straight onto the stack and
    /// reads its first result there: no ``LuaValue`` or reference is made on
    /// the way, which makes a call several times cheaper than ``call(_:)``
    /// for hot paths such as factories.
    ///
    /// ```swift
    /// let name = try greet.call(pushing: { f in f.push("Ada"); return 1 },
    ///                           reading: { f, at in try f.string(at) })
    /// ```
    /// `pushing` returns how many arguments it pushed; `reading` gets the
    /// stack index of the first result (a nil there when the function
    /// returned nothing). `pushing` has room for 24 values (``LuaFrame/reserve(_:)``
    /// for more); a count that is not what it pushed is an error, not a call.
    ///
    /// - Throws: what `pushing` or `reading` throws; a `LuaError` of kind `.runtime` when `pushing` miscounts
    ///   (nothing is called), `.closed` once the state is closed, or the function's error with its traceback.
    public func call<R>(pushing: (LuaFrame) throws -> Int32, reading: (LuaFrame, Int32) throws -> R) throws -> R {
        let (state, L) = try pushSelf()
        let base = lua_gettop(L) - 1
        // One exit path, in this order: the stack is reset while the state is
        // still open, then a close asked for during the call happens.
        defer {
            lua_settop(L, base)
            state.closeIfRequested()
        }
        try state.reserve(24, in: L)
        let frame = LuaFrame(state: state, L: L)
        let count = try pushing(frame)
        let pushed = lua_gettop(L) - base - 1
        guard count == pushed else {
            throw LuaError(.runtime, "call(pushing:reading:): the pushing closure said \(count) arguments but pushed \(pushed)")
        }
        let status = fh_pcall(L, count, 1)
        guard status == LUA_OK else { throw state.popError(status, L) }
        return try reading(LuaFrame(state: state, L: L), lua_gettop(L))
    }
}

extension LuaFrame {
    /// Gives the table at `index` the metatable `metatable` (no metamethod runs).
    ///
    /// ```swift
    /// frame.pushNewTable()
    /// try frame.setMetatable(ofTableAt: -1, to: strict)     // reads of missing keys now raise
    /// ```
    ///
    /// - Throws: a `LuaError` of kind `.closed` when `metatable` belongs to a closed state.
    public func setMetatable(ofTableAt index: Int32, to metatable: LuaTable) throws {
        let table = lua_absindex(L, index)
        try state.push(.table(metatable), in: L)
        lua_setmetatable(L, table)
    }

    /// Pushes a new table with room for `arrayCapacity` + `hashCapacity` entries.
    public func pushNewTable(arrayCapacity: Int32 = 0, hashCapacity: Int32 = 0) {
        lua_createtable(L, arrayCapacity, hashCapacity)
    }

    /// Pops the value on top into field `key` of the table at `index`, raw:
    /// no metamethod runs, so nothing can raise through Swift.
    public func setField(_ key: String, inTableAt index: Int32) {
        setField(LuaFieldName(key), inTableAt: index)
    }

    /// Like ``setField(_:inTableAt:)`` with a name made ready once, for hot
    /// paths that set the same fields again and again.
    public func setField(_ key: LuaFieldName, inTableAt index: Int32) {
        key.cString.withUnsafeBufferPointer { chars in
            let table = lua_absindex(L, index)
            if !key.hasNUL {
                // A C string at a stable address: Lua's own string cache finds it.
                _ = lua_pushstring(L, chars.baseAddress)
            } else {
                _ = lua_pushlstring(L, chars.baseAddress, chars.count - 1)
            }
            lua_rotate(L, -2, 1)      // key below the value
            lua_rawset(L, table)      // raw: a __newindex could raise through Swift
        }
    }
}

/// A table field name made ready once (a C string Lua's string cache
/// recognises; names may hold any byte, NUL too).
///
/// ```swift
/// let label = LuaFieldName("cache")
/// frame.pushNewTable(); frame.push(1); frame.setField(label, inTableAt: -2)
/// ```
public struct LuaFieldName: Sendable {
    let cString: ContiguousArray<CChar>
    let hasNUL: Bool
    /// The field name `name` (any bytes, NUL included).
    public init(_ name: String) {
        cString = name.utf8CString
        hasNUL = name.utf8.contains(0)
    }
}
