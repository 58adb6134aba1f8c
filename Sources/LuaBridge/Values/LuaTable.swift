import CLua
import CLuaShim

/// A Lua table held from Swift.
///
/// `get`/`set` honour metamethods (`__index`, `__newindex`) and run them
/// protected; `rawGet`/`rawSet` do not run any.
///
/// ```swift
/// let t = try lua.newTable()
/// try t.set("name", "MovieLoader")
/// try t.set(1, 42)
/// try t.get("name").string()   // "MovieLoader"
/// try t.array()                // [.integer(42)]
/// ```
public final class LuaTable: LuaReference {
    /// `t[key]`, running `__index` if the table has one.
    ///
    /// - Throws: the `LuaError` an `__index` metamethod raises (message and traceback), or `.closed` when the
    ///   state is closed or `key` belongs to another state.
    public func get(_ key: LuaValue) throws -> LuaValue {
        let (state, L) = try pushSelf()
        let t = lua_gettop(L)
        defer { lua_settop(L, t - 1) }
        try state.push(key, in: L)
        let status = fh_pgettable(L, t)
        guard status == LUA_OK else { throw state.popError(status, L) }
        return state.value(at: -1, in: L)
    }

    /// `t[key] = value`, running `__newindex` if the table has one.
    ///
    /// - Throws: the `LuaError` a `__newindex` metamethod raises, or Lua's own for a nil or NaN key (kind
    ///   `.runtime`); `.closed` when the state is closed or `key` or `value` is of another state.
    public func set(_ key: LuaValue, _ value: LuaValue) throws {
        let (state, L) = try pushSelf()
        let t = lua_gettop(L)
        defer { lua_settop(L, t - 1) }
        try state.push(key, in: L)
        try state.push(value, in: L)
        let status = fh_psettable(L, t)
        guard status == LUA_OK else { throw state.popError(status, L) }
    }

    /// `rawget(t, key)`.
    ///
    /// - Throws: a `LuaError` of kind `.closed` when the state is closed or `key` belongs to another state.
    public func rawGet(_ key: LuaValue) throws -> LuaValue {
        let (state, L) = try pushSelf()
        let t = lua_gettop(L)
        defer { lua_settop(L, t - 1) }
        try state.push(key, in: L)
        lua_rawget(L, t)
        return state.value(at: -1, in: L)
    }

    /// `rawget(t, name)` for a name made ready once: no key is converted
    /// per call (for reading the same fields of many tables).
    ///
    /// ```swift
    /// let make = LuaFieldName("make")
    /// let f = try body.rawGet(make)
    /// ```
    ///
    /// - Throws: a `LuaError` of kind `.closed` when the state is closed.
    public func rawGet(_ field: LuaFieldName) throws -> LuaValue {
        let (state, L) = try pushSelf()
        let t = lua_gettop(L)
        defer { lua_settop(L, t - 1) }
        field.cString.withUnsafeBufferPointer { chars in
            _ = lua_pushlstring(L, chars.baseAddress, chars.count - 1)
        }
        lua_rawget(L, t)
        return state.value(at: -1, in: L)
    }

    /// The raw values of `fields`, in their order, and how many key/value
    /// pairs the table holds: what reading a declaration's body needs,
    /// with the table pushed once and walked once (a field that is absent
    /// costs nothing; each pair, one step of `next` and a name compare).
    ///
    /// ```swift
    /// let (values, count) = try body.rawGet(fields: [LuaFieldName("make"), LuaFieldName("deps")])
    /// if values.filter({ !$0.isNil }).count != count { /* an unknown field */ }
    /// ```
    ///
    /// - Throws: a `LuaError` of kind `.closed` when the state is closed.
    public func rawGet(fields: [LuaFieldName]) throws -> (values: [LuaValue], entryCount: Int) {
        try withSlot { table in
            try table.withFields(fields) { found in
                ((0..<fields.count).map { found[$0].value }, found.entryCount)
            }
        }
    }

    /// Whether `field` is spelled `bytes`.
    static func spells(_ field: LuaFieldName, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard field.cString.count - 1 == bytes.count else { return false }
        return field.cString.withUnsafeBufferPointer { chars in
            var i = 0
            while i < bytes.count, UInt8(bitPattern: chars[i]) == bytes[i] { i += 1 }
            return i == bytes.count
        }
    }

    /// Lends the table as a ``LuaSlot`` to `body` (for reading it in place).
    ///
    /// - Throws: what `body` throws; a `LuaError` of kind `.closed` when the state is closed.
    public func withSlot<R>(_ body: (LuaSlot) throws -> R) throws -> R {
        let (state, L) = try pushSelf()
        let t = lua_gettop(L)
        defer { lua_settop(L, t - 1) }
        return try body(LuaSlot(state: state, L: L, index: t))
    }

    /// `t[key] = value` (raw), the value lent in place.
    ///
    /// - Throws: a `LuaError` of kind `.typeMismatch` for a nil or NaN key, or `.closed` when the state is
    ///   closed or `key` or `value` belongs to another state.
    public func rawSet(_ key: LuaValue, _ value: LuaSlot) throws {
        try Self.checkKey(key)
        guard let state, value.state === state else {
            throw LuaError(.closed, state == nil ? "the Lua state is closed" : "a value from another Lua state cannot be used here")
        }
        let L = value.L                          // the thread the value is on
        try state.reserve(3, in: L)
        let t = lua_gettop(L) + 1
        defer { lua_settop(L, t - 1) }
        _ = fh_getref(L, ref)
        try state.push(key, in: L)
        lua_pushvalue(L, value.index)
        lua_rawset(L, t)
    }

    /// The number of pairs of the table at `t` (nothing between two steps
    /// can change it: no conversion, no allocation).
    private static func countEntries(_ L: OpaquePointer, _ t: Int32) -> Int {
        var count = 0
        lua_pushnil(L)
        while lua_next(L, t) != 0 {
            count += 1
            lua_settop(L, -2)
        }
        return count
    }

    /// How many key/value pairs the table holds (raw, in `next` order),
    /// found without converting any of them.
    ///
    /// - Throws: a `LuaError` of kind `.closed` when the state is closed.
    public var entryCount: Int {
        get throws {
            let (_, L) = try pushSelf()
            let t = lua_gettop(L)
            defer { lua_settop(L, t - 1) }
            return Self.countEntries(L, t)
        }
    }

    /// `rawset(t, key, value)`. A nil or NaN key is an error.
    ///
    /// - Throws: a `LuaError` of kind `.typeMismatch` for a nil or NaN key, or `.closed` when the state is
    ///   closed or `key` or `value` belongs to another state.
    public func rawSet(_ key: LuaValue, _ value: LuaValue) throws {
        try Self.checkKey(key)
        let (state, L) = try pushSelf()
        let t = lua_gettop(L)
        defer { lua_settop(L, t - 1) }
        try state.push(key, in: L)
        try state.push(value, in: L)
        lua_rawset(L, t)
    }

    /// Lua raises for these keys (unprotected, in a raw set): thrown here instead.
    private static func checkKey(_ key: LuaValue) throws {
        switch key {
        case .nil: throw LuaError(.typeMismatch, "table index is nil")
        case .number(let d) where d.isNaN: throw LuaError(.typeMismatch, "table index is NaN")
        default: break
        }
    }

    /// The raw length (`rawlen(t)`): the border of the array part.
    ///
    /// - Throws: a `LuaError` of kind `.closed` when the state is closed.
    public var count: Int {
        get throws {
            let (_, L) = try pushSelf()
            defer { fh_pop(L, 1) }
            return Int(lua_rawlen(L, -1))
        }
    }

    /// Every key/value pair, in Lua's `next` order (no metamethods).
    ///
    /// - Throws: a `LuaError` of kind `.closed` when the state is closed, or `.runtime` when the table
    ///   changed during the walk (a finalizer changed it).
    public func pairs() throws -> [(key: LuaValue, value: LuaValue)] {
        let (state, L) = try pushSelf()
        let t = lua_gettop(L)
        defer { lua_settop(L, t - 1) }
        try state.reserve(4, in: L)
        var result: [(key: LuaValue, value: LuaValue)] = []
        lua_pushnil(L)
        while try Self.next(L, t, state) {
            result.append((state.value(at: -2, in: L), state.value(at: -1, in: L)))
            fh_pop(L, 1)
        }
        return result
    }

    /// Calls `body` with each key/value pair in turn, in Lua's `next` order
    /// (no metamethods): unlike ``pairs()``, a pair's values are let go
    /// before the next pair is read — a configuration of 100,000
    /// registrations held 100,000 userdata references at once. A table
    /// changed meanwhile (by a finalizer) is an error, not a crash; `body`
    /// must not add keys to it.
    ///
    /// ```swift
    /// try table.forEachPair { key, value in print(key, value) }
    /// ```
    ///
    /// - Throws: what `body` throws (the walk stops there); a `LuaError` of kind `.closed` when the state is
    ///   closed, or `.runtime` when the table changed during the walk.
    public func forEachPair(_ body: (_ key: LuaValue, _ value: LuaValue) throws -> Void) throws {
        try forEachEntry { key, value in try body(key.value, value.value) }
    }

    /// Calls `body` with each key/value pair in turn, in Lua's `next` order
    /// (no metamethods), lent in place: no reference is made and no string
    /// copied unless `body` asks a slot for one — for reading many small
    /// tables, where ``forEachPair(_:)``'s conversions cost more than the
    /// reading. The slots are valid during the call only. A table changed
    /// meanwhile (by a finalizer) is an error, not a crash; `body` must not
    /// add keys to it.
    ///
    /// ```swift
    /// try deps.forEachEntry { key, value in
    ///     if let label = key.text, let target = value.text { print(label, target) }
    /// }
    /// ```
    ///
    /// - Throws: what `body` throws (the walk stops there); a `LuaError` of kind `.closed` when the state is
    ///   closed, or `.runtime` when the table changed during the walk.
    public func forEachEntry(_ body: (_ key: LuaSlot, _ value: LuaSlot) throws -> Void) throws {
        try withSlot { table in try Self.walk(table, body) }
    }

    /// The walk of ``forEachEntry(_:)`` over the table in `table`'s slot.
    static func walk(_ table: LuaSlot, _ body: (_ key: LuaSlot, _ value: LuaSlot) throws -> Void) throws {
        let (state, L, t) = (table.state, table.L, table.index)
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        try state.reserve(4, in: L)
        lua_pushnil(L)
        while try next(L, t, state) {
            try body(LuaSlot(state: state, L: L, index: top + 1), LuaSlot(state: state, L: L, index: top + 2))
            lua_settop(L, top + 1)               // the key stays, for `next`
        }
    }

    /// One protected step of a walk (see `fh_pnext`): a finalizer that ran
    /// since the last step may have changed the table, and Lua's `next`
    /// then fails — as an error thrown here.
    private static func next(_ L: OpaquePointer, _ t: Int32, _ state: LuaState) throws -> Bool {
        switch fh_pnext(L, t) {
        case 1: return true
        case 0: return false
        default:
            let message = (try? state.value(at: -1, in: L).string()) ?? "?"
            throw LuaError(.runtime, "the table changed while it was read (\(message))")
        }
    }

    /// The table as a sequence `t[1] … t[n]`; throws if it has any other key.
    ///
    /// - Throws: a `LuaError` of kind `.typeMismatch` when a key is not one of `1…n`; else what `pairs()`
    ///   throws (`.closed`, `.runtime`).
    public func array() throws -> [LuaValue] {
        let entries = try pairs()
        var items = [LuaValue](repeating: .nil, count: entries.count)
        for (key, value) in entries {
            guard case .integer(let i) = key, i >= 1, i <= entries.count else {
                throw LuaError(.typeMismatch, "array expected, got table with key \(key)")
            }
            items[i - 1] = value
        }
        return items
    }

    /// The table as a dictionary (no metamethods).
    ///
    /// - Throws: what `pairs()` throws: `.closed` when the state is closed, `.runtime` when the table changed
    ///   during the walk.
    public func dictionary() throws -> [LuaValue: LuaValue] {
        var result: [LuaValue: LuaValue] = [:]
        for (key, value) in try pairs() { result[key] = value }
        return result
    }

    /// Convenience: `t[name]` for a string key.
    ///
    /// - Throws: what `get(_:)` throws for a `LuaValue` key: an `__index` metamethod's error, or `.closed`.
    public func get(_ name: String) throws -> LuaValue { try get(LuaValue(name)) }
    /// Convenience: `t[name] = value` for a string key.
    ///
    /// - Throws: what `set(_:_:)` throws for a `LuaValue` key: a `__newindex` metamethod's error, or
    ///   `.closed`.
    public func set(_ name: String, _ value: LuaValue) throws { try set(LuaValue(name), value) }
}
