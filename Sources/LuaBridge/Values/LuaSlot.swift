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
    let state: LuaState
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
}
