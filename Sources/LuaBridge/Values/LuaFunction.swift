import CLua
import CLuaShim

/// A Lua function (written in Lua, or a Swift function pushed into Lua).
///
/// Calls are protected: an error comes back as a thrown ``LuaError`` with
/// Lua's message and traceback, and the state stays usable.
///
/// ```swift
/// let add = try lua.run("return function(a, b) return a + b end", name: "add")[0].function()
/// try add.call(2, 3)   // [.integer(5)]
/// ```
public final class LuaFunction: LuaReference {
    /// Calls the function with `arguments`; returns all its results.
    ///
    /// - Throws: the `LuaError` the call fails with, with message and traceback (`.runtime`, or a limit's
    ///   kind such as `.timeLimit`); `.closed` when the state is closed or an argument is of another state.
    @discardableResult
    public func call(_ arguments: LuaValue...) throws -> [LuaValue] {
        try call(arguments: arguments)
    }

    /// Calls the function with `arguments`; returns all its results.
    ///
    /// - Throws: the `LuaError` the call fails with, with message and traceback (`.runtime`, or a limit's
    ///   kind such as `.timeLimit`); `.closed` when the state is closed or an argument is of another state.
    @discardableResult
    public func call(arguments: [LuaValue]) throws -> [LuaValue] {
        try invoke(arguments, asScript: false)
    }

    /// Runs the function the way the stock interpreter runs a script: from a C
    /// frame, so the traceback ends in `[C]: in ?` (what `LuaInterpreter`'s
    /// `ScriptRunner` does with a script's main chunk).
    ///
    /// ```swift
    /// let main = try lua.loadFile("script.lua")
    /// _ = try main.callAsScript(arguments: ["a", "b"])     // the script's `...`
    /// ```
    ///
    /// - Throws: a `LuaError` with the traceback when the function raises, or of kind `.closed` when the state is.
    public func callAsScript(arguments: [LuaValue]) throws -> [LuaValue] {
        try invoke(arguments, asScript: true)
    }

    private func invoke(_ arguments: [LuaValue], asScript: Bool) throws -> [LuaValue] {
        let (state, L) = try pushSelf()
        let base = lua_gettop(L) - 1
        do {
            try state.reserve(arguments.count + 8, in: L)
            for argument in arguments { try state.push(argument, in: L) }
        } catch {
            lua_settop(L, base)
            throw error
        }
        return try state.protectedCall(L, arguments: Int32(arguments.count), base: base, asScript: asScript)
    }
}

extension LuaFunction {
    /// Where the function was defined, as `chunk:line` (`fake.lua:12`), or
    /// `[C]` for a C or Swift function; nil once the state is closed.
    public var definition: String? {
        guard let (_, L) = try? pushSelf() else { return nil }
        var info = lua_Debug()
        guard lua_getinfo(L, ">S", &info) != 0 else { return nil }     // pops the function; never raises
        let source = withUnsafeBytes(of: &info.short_src) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return info.linedefined > 0 ? "\(source):\(info.linedefined)" : source
    }
}
