import CLua
import CLuaShim

/// Userdata already pushed, kept in a weak-valued table with one slot per
/// place that hands Lua the same objects again and again — a Lua factory's
/// dependency on a singleton, say. Pushing an object its slot still holds
/// pushes that userdata instead of making a new one (and a finalizer to run
/// later); the table never keeps a userdata alive, so no object outlives
/// its last use in Lua because of it.
///
/// ```swift
/// let cache = try LuaObjectCache(in: lua)
/// let slot = try cache.newSlot()
/// frame.pushObject(logger, metatable: loggerType, cache: cache, slot: slot)   // new userdata
/// frame.pushObject(logger, metatable: loggerType, cache: cache, slot: slot)   // the same one
/// ```
package final class LuaObjectCache {
    let table: LuaTable
    private var slots = 0

    package init(in state: LuaState) throws {
        table = try state.newTable()
        let weakValues = try state.newTable()
        try weakValues.rawSet("__mode", "v")
        try state.setMetatable(of: table, to: weakValues)
    }

    /// A slot of its own for one pushing site. Made now (a protected set),
    /// so filling it later never allocates.
    package func newSlot() throws -> Int {
        slots += 1
        try table.rawSet(.integer(slots), .boolean(false))
        return slots
    }
}

extension LuaFrame {
    /// Pushes `object` as by ``pushObject(_:metatable:)``, reusing the
    /// userdata `slot` of `cache` still holds for it, and leaves the one
    /// pushed in the slot (see ``LuaObjectCache``).
    package func pushObject(_ object: AnyObject, metatable: LuaMetatableReference, cache: LuaObjectCache, slot: Int) {
        if pushCachedObject(object, cache: cache, slot: slot) { return }
        pushObject(object, metatable: metatable)
        cacheObject(at: -1, cache: cache, slot: slot)
    }

    /// Pushes the userdata `slot` of `cache` holds if it holds `object`
    /// (alive, as exactly its class); false, and nothing pushed, otherwise.
    package func pushCachedObject(_ object: AnyObject, cache: LuaObjectCache, slot: Int) -> Bool {
        guard cache.table.link.state === state else { return false }
        let address = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
        return fh_push_cached_object(L, cache.table.ref, lua_Integer(slot), address,
                                     swiftTypeIdentity(Swift.type(of: object))) != 0
    }

    /// Keeps the userdata at `index` in `slot` of `cache` (weakly).
    package func cacheObject(at index: Int32, cache: LuaObjectCache, slot: Int) {
        guard cache.table.link.state === state else { return }
        fh_cache_object(L, cache.table.ref, lua_Integer(slot), index)
    }
}
