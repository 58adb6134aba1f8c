import FactoryhostSupport

/// A Lua function handed to Swift as a *factory closure* — Koober's
/// `() -> OnboardingViewController` — whose every result Swift checks: a
/// closure that makes anything but a `Product` is an error naming the
/// closure, what it made and what was expected, never an object of the
/// wrong type taken on trust.
///
/// Usually a `provider "…"` dependency, but any Lua function will do.
///
/// ```swift
/// .constructor(frame: { frame in
///     MainViewController(makeOnboarding: try LuaFactoryClosure<OnboardingViewController>(frame, 2, name: "makeOnboarding"))
/// })
/// // later, as often as needed:
/// let onboarding = try makeOnboarding()                     // an OnboardingViewController, or a clear error
/// let signedIn = try makeSignedIn(["session": session])     // runtime arguments, as a provider takes them
/// ```
///
/// Not `Sendable`: it calls into its Lua state, which one thread owns.
public struct LuaFactoryClosure<Product: LuaExportable> {
    /// The Lua function itself.
    public let function: LuaFunction
    /// What the closure is called in messages (the parameter it was passed as).
    public let name: String

    /// Wraps `function`, called `name` in messages.
    public init(_ function: LuaFunction, name: String) {
        self.function = function
        self.name = name
    }

    /// Argument `position` of a call from Lua, which must be a function:
    /// otherwise `bad argument #n to 'f' (function (factory closure 'name' making an
    /// OnboardingViewController) expected, got string)`.
    ///
    /// - Throws: a `LuaError` of kind `.typeMismatch` (the bad-argument error above) when argument `position`
    ///   is not a function.
    public init(_ frame: LuaFrame, _ position: Int32, name: String) throws {
        guard case .function(let function) = frame.value(position) else {
            throw frame.typeError(position, expected: "function (factory closure '\(name)' making \(Self.article(Product.luaTypeName)))")
        }
        self.init(function, name: name)
    }

    /// Calls the closure with no arguments and checks what it made.
    ///
    /// - Throws: the `LuaError` the Lua function raises (message and traceback), `.closed` once the state is
    ///   closed, or `.typeMismatch` naming the closure when its first result is not a `Product`.
    public func callAsFunction() throws -> Product {
        try product(of: function.call())
    }

    /// Calls the closure with a table of named runtime arguments (how a
    /// `provider` with `args` takes them) and checks what it made.
    ///
    /// - Throws: the `LuaError` the Lua function raises (message and traceback); `.closed` once the state is
    ///   closed or for a value of another state; `.typeMismatch` when the first result is not a `Product`.
    public func callAsFunction(_ arguments: [String: LuaValue]) throws -> Product {
        guard let state = function.state else { throw LuaError(.closed, "the Lua state is closed") }
        let table = try state.newTable(hashCapacity: arguments.count)
        for (key, value) in arguments { try table.rawSet(LuaValue(key), value) }
        return try product(of: function.call(.table(table)))
    }

    private func product(of results: [LuaValue]) throws -> Product {
        let made = results.first ?? .nil
        if case .userdata(let userdata) = made, let product = userdata.object(as: Product.self) { return product }
        throw LuaError(.typeMismatch, "the factory closure '\(name)' made \(Self.describe(made)), not \(Self.article(Product.luaTypeName))")
    }

    private static func describe(_ value: LuaValue) -> String {
        switch value {
        case .nil: return "nothing (nil)"
        case .string(let text): return "a string (\"\(escaped(text.description.prefix(40)))\")"
        case .userdata(let userdata): return article(userdata.typeName)
        default: return article(value.typeName)
        }
    }

    /// Text for a message: quotes, backslashes and control characters
    /// escaped as Lua writes them (`\n`, `\27`), so no byte of it reaches a
    /// terminal raw.
    private static func escaped(_ text: Substring) -> String { TextEscaping.luaMessage.escaped(text) }

    /// "an OnboardingViewController", "a string", "a UserSession", "an
    /// HTTPSession" (an initialism is read letter by letter: "an F…", "a U…").
    private static func article(_ name: String) -> String {
        let letters = Array(name.prefix(2))
        let initialism = letters.count == 2 && letters.allSatisfy(\.isUppercase)
        let vowelSound = initialism ? "AEFHILMNORSX".contains(letters[0]) : "AEIOaeio".contains(letters.first ?? "x")
        return (vowelSound ? "an " : "a ") + name
    }
}
