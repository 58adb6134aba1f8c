import CLua
import CLuaShim

/// A Lua object (table, function, userdata, thread) that Swift holds on to.
///
/// The object stays alive in Lua for as long as the reference lives. A
/// reference does not keep its state alive: once the state is closed, using
/// it throws a `.closed` error.
///
/// A reference may be released on any thread, but on a thread other than the
/// state's owner only while the state is alive: releasing it there while the
/// owner closes or frees the state is a race (the release reads the state).
public class LuaReference {
    /// The state the object lives in, through its link (a reference never
    /// keeps the state open; the link goes empty when the state closes).
    let link: LuaStateLink
    /// The state the object lives in (`nil` once that state is closed).
    public var state: LuaState? { link.state }
    /// The object's slot in the registry.
    let ref: Int32
    /// The object's address in Lua, for identity (`==`, hashing).
    public let identity: UnsafeRawPointer?

    /// References the value at `index` on thread `L`.
    init(state: LuaState, L: OpaquePointer, index: Int32) {
        self.link = state.link
        self.identity = lua_topointer(L, index)
        lua_pushvalue(L, index)
        self.ref = fh_ref(L)
    }

    /// Frees the registry slot: now on the state's thread; on any other
    /// thread (a reference captured by a factory that another thread
    /// released), at the state's next call from its owner — luaL_unref
    /// changes the registry, which only the owner may touch.
    deinit {
        guard let state, let L = state.mainThread else { return }
        if state.isOnOwnerThread {
            fh_unref(state.current ?? L, ref)
        } else {
            fh_defer_unref(L, ref)
        }
    }

    /// Pushes the object and returns the state and thread it was pushed on.
    func pushSelf() throws -> (LuaState, OpaquePointer) {
        guard let state else { throw LuaError(.closed, "the Lua state is closed") }
        let L = try state.thread()
        try state.reserve(8, in: L)
        _ = fh_getref(L, ref)
        return (state, L)
    }
}
