import CLua
import CLuaShim

/// A Lua value lent in place, on the stack — a key or value of
/// ``LuaTable/forEachEntry(_:)`` — read without making a reference to it
/// or copying its string. Valid only during the call that lends it: keep
/// ``value`` (a ``LuaValue``) to hold on to it.
///
/// ```swift
/// try table.forEachEntry { key, value in
///     guard let name = key.text else { throw … }        // a string key's text
///     if let spec = value.object(as: Spec.self) { … }    // a Swift object inside
/// }
/// ```
public struct LuaSlot {
    /// `unowned(unsafe)`: a slot is lent only for a call during which whoever
    /// lends it (a table walk holding its table, a frame) holds the state.
    unowned(unsafe) let state: LuaState
    let L: OpaquePointer
    let index: Int32

    /// The value's Lua type.
    public var type: LuaType { LuaType(rawValue: lua_type(L, index)) ?? .none }

    /// Whether the value is nil.
    public var isNil: Bool { lua_type(L, index) == LUA_TNIL }

    /// The value, converted (a table, function or userdata becomes a
    /// reference; a string, a copy).
    public var value: LuaValue { state.value(at: index, in: L) }

    /// A string's text (invalid UTF-8 repaired, as ``LuaString/description``
    /// gives it); nil for any other type — a number is not converted.
    public var text: String? {
        guard lua_type(L, index) == LUA_TSTRING else { return nil }
        var length = 0
        guard let chars = fh_tolstring(L, index, &length) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: chars, count: length), as: UTF8.self)
    }

    /// A string's text if it is valid UTF-8; nil for invalid UTF-8 and for
    /// any other type.
    public var validText: String? {
        guard lua_type(L, index) == LUA_TSTRING else { return nil }
        var length = 0
        guard let chars = fh_tolstring(L, index, &length) else { return nil }
        return String(validating: UnsafeRawBufferPointer(start: chars, count: length), as: UTF8.self)
    }

    /// An integer's value; nil for any other type, a float included.
    public var integer: Int? {
        guard lua_type(L, index) == LUA_TNUMBER, lua_isinteger(L, index) != 0 else { return nil }
        return Int(lua_tointegerx(L, index, nil))
    }

    /// The Swift object of type `T` inside, if the value is a userdata
    /// holding one that Lua has not yet released (an object of exactly
    /// class `T` is a pointer compare).
    public func object<T: AnyObject>(as type: T.Type = T.self) -> T? {
        if let raw = fh_to_object_of_type(L, index, swiftTypeIdentity(T.self)) {
            return unsafeDowncast(Unmanaged<AnyObject>.fromOpaque(raw).takeUnretainedValue(), to: T.self)
        }
        guard let raw = fh_object_inside(L, index) else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(raw).takeUnretainedValue() as? T
    }

    /// Calls `body` with each key/value pair of the table here, lent in
    /// place (see ``LuaTable/forEachEntry(_:)``).
    ///
    /// - Throws: a `LuaError` of kind `.typeMismatch` when the value is not a table; what `body` throws;
    ///   `.runtime` when the table changed during the walk.
    public func forEachEntry(_ body: (_ key: LuaSlot, _ value: LuaSlot) throws -> Void) throws {
        guard lua_type(L, index) == LUA_TTABLE else { throw LuaError.typeMismatch(expected: "table", got: value.typeName) }
        try LuaTable.walk(self, body)
    }

    /// Lends `body` the raw values of `fields` in the table here, found in
    /// one walk of its pairs — what reading a declaration's body needs: a
    /// field that is absent costs nothing, and nothing is converted unless
    /// `body` asks.
    ///
    /// ```swift
    /// try body.withFields([LuaFieldName("make"), LuaFieldName("deps")]) { found in
    ///     if found.present != found.entryCount { /* an unknown field */ }
    ///     let make = found[0]
    /// }
    /// ```
    ///
    /// - Throws: a `LuaError` of kind `.typeMismatch` when the value is not a table; what `body` throws.
    public func withFields<R>(_ fields: [LuaFieldName], _ body: (LuaFields) throws -> R) throws -> R {
        guard lua_type(L, index) == LUA_TTABLE else { throw LuaError.typeMismatch(expected: "table", got: value.typeName) }
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        // Each field's value is copied to a slot of its own above the
        // table. Nothing between two steps of the walk converts or
        // allocates, so nothing (no finalizer) can change the table under
        // `next`.
        let count = Int32(fields.count)
        try state.reserve(Int(count) + 4, in: L)
        lua_settop(L, top + count + 1)           // the slots, and one for a position past the list: nil
        var entryCount = 0, present = 0
        lua_pushnil(L)
        while lua_next(L, index) != 0 {
            entryCount += 1
            var length = 0
            if lua_type(L, -2) == LUA_TSTRING, let chars = fh_tolstring(L, -2, &length) {
                // Every position the name has (a list may name a field twice).
                let name = UnsafeRawBufferPointer(start: chars, count: length)
                var known = false
                for (position, field) in fields.enumerated() where LuaTable.spells(field, name) {
                    lua_copy(L, -1, top + 1 + Int32(position))
                    known = true
                }
                if known { present += 1 }
            }
            lua_settop(L, -2)
        }
        return try body(LuaFields(first: LuaSlot(state: state, L: L, index: top + 1), count: fields.count,
                                  entryCount: entryCount, present: present))
    }
}

/// The fields ``LuaSlot/withFields(_:_:)`` found, by their position in the
/// list asked for; valid during that call only.
public struct LuaFields {
    let first: LuaSlot
    let count: Int
    /// How many key/value pairs the table holds.
    public let entryCount: Int
    /// How many of them are fields asked for (the rest are unknown).
    public let present: Int

    /// Field `position`'s value (nil when absent, or past the list).
    public subscript(position: Int) -> LuaSlot {
        let index = position >= 0 && position < count ? position : count
        return LuaSlot(state: first.state, L: first.L, index: first.index + Int32(index))
    }
}
