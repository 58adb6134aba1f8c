import CLua
import CLuaShim

/// A full userdata held from Swift — usually a Swift object that Lua holds.
///
/// ```swift
/// final class Counter { var n = 0 }
/// let ud = try lua.pushObject(Counter(), type: "Counter")
/// try lua.setGlobal("counter", .userdata(ud))
/// ud.object(as: Counter.self)?.n   // 0
/// ```
public final class LuaUserdata: LuaReference {
    /// The metatable's `__name` (the exported type name), or `"userdata"`.
    public let typeName: String

    override init(state: LuaState, L: OpaquePointer, index: Int32) {
        var name = "userdata"
        if lua_getmetatable(L, index) != 0 {
            lua_pushstring(L, "__name")
            var length = 0
            if lua_rawget(L, -2) == LUA_TSTRING, let chars = fh_tolstring(L, -1, &length) {
                // The same few names again and again: the last one is reused.
                let bytes = UnsafeRawBufferPointer(start: chars, count: length)
                name = state.userdataTypeNames.string(UnsafeRawBufferPointer(rebasing: bytes[..<(bytes.firstIndex(of: 0) ?? length)]))
            }
            fh_pop(L, 2)
        }
        typeName = name
        super.init(state: state, L: L, index: index)
    }

    /// The Swift object inside, if this userdata holds one of type `T` that
    /// Lua has not yet released.
    public func object<T: AnyObject>(as: T.Type = T.self) -> T? {
        guard let (_, L) = try? pushSelf() else { return nil }
        defer { fh_pop(L, 1) }
        guard let raw = fh_to_object(L, -1, typeName) else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(raw).takeUnretainedValue() as? T
    }
}

extension LuaState {
    /// Pushes `object` into Lua as a full userdata of type `type` — the
    /// userdata holds a retained reference, released exactly once by `__gc` —
    /// and returns it. The type's metatable is hidden from scripts; fill it
    /// through ``metatable(for:)``.
    ///
    /// - Throws: a `LuaError` of kind `.closed` when the state is closed.
    public func pushObject(_ object: AnyObject, type: String) throws -> LuaUserdata {
        let L = try thread()
        try reserve(4, in: L)
        pushObject(object, type: type, in: L)
        defer { fh_pop(L, 1) }
        return try value(at: -1, in: L).userdata()
    }

    /// The metatable of userdata type `type` (created on first use with `__gc`,
    /// `__name` and a hidden `__metatable`).
    ///
    /// - Throws: a `LuaError` of kind `.closed` when the state is closed.
    public func metatable(for type: String) throws -> LuaTable {
        let L = try thread()
        try reserve(4, in: L)
        _ = fh_object_metatable(L, type)
        defer { fh_pop(L, 1) }
        return try value(at: -1, in: L).table()
    }
}

/// `__gc` of a Swift-object userdata: gives back the reference it held.
let swiftObjectRelease: fh_release_fn = { raw in
    guard let raw else { return }
    Unmanaged<AnyObject>.fromOpaque(raw).release()
}
