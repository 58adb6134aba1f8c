import CLua
import CLuaShim

// Moving values between Swift and a Lua stack. Nothing here can raise a Lua
// error: reads use only non-raising API calls, pushes run with the memory cap
// off (see CLuaShim), and reference creation only touches the registry.
extension LuaState {
    /// The value at `idx` on thread `L`.
    func value(at idx: Int32, in L: OpaquePointer) -> LuaValue {
        switch lua_type(L, idx) {
        case LUA_TBOOLEAN:
            return .boolean(lua_toboolean(L, idx) != 0)
        case LUA_TNUMBER:
            if lua_isinteger(L, idx) != 0 { return .integer(Int(lua_tointegerx(L, idx, nil))) }
            return .number(lua_tonumberx(L, idx, nil))
        case LUA_TSTRING:
            var length = 0
            guard let chars = fh_tolstring(L, idx, &length) else { return .nil }
            return .string(LuaString(bytes: Array(UnsafeRawBufferPointer(start: chars, count: length))))
        case LUA_TTABLE:
            return .table(LuaTable(state: self, L: L, index: idx))
        case LUA_TFUNCTION:
            return .function(LuaFunction(state: self, L: L, index: idx))
        case LUA_TUSERDATA:
            return .userdata(LuaUserdata(state: self, L: L, index: idx))
        case LUA_TLIGHTUSERDATA:
            return .lightUserdata(lua_touserdata(L, idx))
        case LUA_TTHREAD:
            return .thread(LuaReference(state: self, L: L, index: idx))
        default:
            return .nil
        }
    }

    /// Pushes `value` onto thread `L`. Throws for a reference that belongs to
    /// another (or a closed) state.
    func push(_ value: LuaValue, in L: OpaquePointer) throws {
        switch value {
        case .nil: lua_pushnil(L)
        case .boolean(let b): lua_pushboolean(L, b ? 1 : 0)
        case .integer(let i): lua_pushinteger(L, lua_Integer(i))
        case .number(let d): lua_pushnumber(L, d)
        case .string(let s): pushBytes(s.bytes, in: L)
        case .lightUserdata(let p): lua_pushlightuserdata(L, p)
        case .table(let r as LuaReference), .function(let r as LuaReference),
            .userdata(let r as LuaReference), .thread(let r):
            guard r.state === self else {
                throw LuaError(.closed, "a \(value.type) from another Lua state cannot be used here")
            }
            _ = fh_getref(L, r.ref)
        }
    }

    /// Pushes a string with exactly these bytes (NULs included).
    func pushBytes(_ bytes: [UInt8], in L: OpaquePointer) {
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { _ = lua_pushlstring(L, $0.baseAddress, $0.count) }
        }
    }

    /// Makes sure `L` has room for `count` more values.
    func reserve(_ count: Int, in L: OpaquePointer) throws {
        guard count < 1_000_000, lua_checkstack(L, Int32(count)) != 0 else {
            throw LuaError(.memory, "stack overflow (cannot hold \(count) more values)")
        }
    }

    /// Calls the function at `-(nargs+1)` on `L` protected (as a script: from
    /// a C frame), returning all its results or throwing its error. The stack
    /// is left at `base`, as it was before the function was pushed.
    func protectedCall(_ L: OpaquePointer, arguments nargs: Int32, base: Int32, asScript: Bool = false) throws -> [LuaValue] {
        let status = asScript ? fh_pcall_script(L, nargs, LUA_MULTRET) : fh_pcall(L, nargs, LUA_MULTRET)
        defer { closeIfRequested() }
        guard status == LUA_OK else {
            let error = popError(status, L)
            lua_settop(L, base)
            throw error
        }
        let top = lua_gettop(L)
        var results: [LuaValue] = []
        results.reserveCapacity(Int(top - base))
        if top > base {
            for i in (base + 1)...top { results.append(value(at: i, in: L)) }
        }
        lua_settop(L, base)
        return results
    }
}
