import FactoryRegistry
import LuaBridge

/// What a script registration is made of on the Lua side: its `make`
/// function and its parameters' values (for the REPL's `:reload`, which
/// compares them between two runs of a script).
///
/// ```swift
/// if let parts = host.scriptParts(of: registration) { print(parts.parameters.map(\.name)) }
/// ```
public struct ScriptParts {
    /// The registration's `make`.
    public let make: LuaFunction
    /// Its parameters (`params`), by name, with the values they hold now.
    public let parameters: [(name: String, value: LuaValue)]
}

extension FactoryHost {
    /// The Lua parts of `registration`, or nil when a Swift factory builds it.
    public func scriptParts(of registration: Registration) -> ScriptParts? {
        guard let factory = (registration.factory as? UntypedFactory)?.source as? LuaFactory else { return nil }
        return factory.parts
    }
}

extension LuaFactory {
    var parts: ScriptParts { ScriptParts(make: make, parameters: parameters.map { ($0.name, $0.value) }) }
}
