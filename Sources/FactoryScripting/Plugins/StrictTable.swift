import FactoryRegistry
import LuaBridge

/// Plugin module tables and class tables read like Swift namespaces:
/// reading a member one does not have (`net.Cahce`, `net.Cache.nwe`) is an
/// error naming the table and the member meant, not a nil that fails later
/// as "attempt to index a nil value". Writing new fields stays allowed
/// (a test may add a helper); the metatable is hidden.
///
/// ```swift
/// try StrictTable.make(module, in: lua, what: "module 'factoryhost.networking'", members: ["Cache", "HTTPSession"])
/// // Lua: net.Cahce → "module 'factoryhost.networking' has no member 'Cahce', did you mean 'Cache'? (members: …)"
/// ```
enum StrictTable {
    /// Makes `table` strict; its members are the names it holds now.
    static func make(_ table: LuaTable, in lua: LuaState, what: String) throws {
        let sorted = try table.pairs().compactMap { key, _ -> String? in
            if case .string(let text) = key { return text.description } else { return nil }
        }.sorted()
        let index = try lua.frameFunction("\(what) member") { frame in
            // Only names are members: t[1] stays nil, so ipairs, table.move
            // and list helpers treat the table as the empty list it is.
            guard case .string(let text) = frame.value(2) else { return 0 }
            let suggestion = NameSuggestion.didYouMean(text.description, among: sorted)
            throw LuaError(.runtime, "\(what) has no member \(describeKey(frame.value(2)))\(suggestion) "
                           + "(members: \(sorted.isEmpty ? "none" : sorted.joined(separator: ", ")))")
        }
        let metatable = try lua.newTable(hashCapacity: 2)
        try metatable.rawSet("__index", .function(index))
        try metatable.rawSet("__metatable", .boolean(false))
        try lua.setMetatable(of: table, to: metatable)
    }
}
