import FactoryRegistry
import LuaBridge

// What a script's factory raises, when it is more than text — `error { code
// = 42 }` — stays reachable: the resolve that failed raises an error object
// whose `cause` is that value, and Swift gets it from the error.

/// A failed resolve raises, in a script, `{ message = …, cause = value }`
/// when its factory raised a value that was not text (see
/// `LuaErrorValueCarrying`); otherwise the message, as before.
extension RegistryError: LuaErrorValueCarrying {
    /// The error's `causeID`: which Lua value the failed factory raised, if it raised one that was not text.
    public var luaErrorValueID: Int? { causeID }
}

extension FactoryHost {
    /// What a script's factory raised, when it was a value other than text
    /// (a table, say) and `error` is the failure it caused — from resolving
    /// in Swift, or a script run. Nil for text errors, and once the host has
    /// let the value go (it keeps the newest 32, and one
    /// raised back into a script is the script's from then on).
    ///
    /// ```swift
    /// do { _ = try container.resolve(Cache.self) } catch {
    ///     if case .table(let cause)? = host.errorCause(of: error) { print(try cause.get("code")) }
    /// }
    /// ```
    public func errorCause(of error: any Error) -> LuaValue? {
        let id: Int?
        switch error {
        case let error as RegistryError: id = error.causeID
        case let error as LuaError: id = error.errorValueID
        default: id = nil
        }
        guard let id, let value = try? lua.errorValue(id) else { return Optional<LuaValue>.none }
        return value
    }
}
