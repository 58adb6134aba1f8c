@_exported import LuaBridge

/// Exports a class to scripts in one attribute: it becomes `LuaExportable`,
/// and `static var luaClass` describes its first initializer (`Type.new(…)`),
/// its methods (`obj:name(…)`; static ones `Type.name(…)`), and its
/// properties (read-only, or read-write where Swift can set them) — each
/// argument checked, a throwing member's error raised in Lua with the Swift
/// error's description, optionals as nil, arrays and dictionaries converted,
/// an `any P` argument taken from a Lua table through `@ScriptImplementable`'s
/// `LuaP`. The Swift argument labels name the parameters in `factoryhost
/// types`, and doc comments' first lines describe the members. A
/// `@MainActor` class's members run on the main actor (``LuaMainActor``).
///
/// ```swift
/// @Scriptable
/// public final class OrderStore {
///     public init(capacity: Int) { … }
///     /// Adds an order; returns how many are held.
///     public func add(_ order: Order) throws -> Int { … }
///     public private(set) var count = 0
/// }
///
/// try context.export(OrderStore.luaClass)      // OrderStore.new(10), store:add(order), store.count
/// ```
///
/// (A struct is a value: ``ScriptValue()`` lets scripts hold it as a table.)
///
/// `@ScriptIgnored` leaves a member out; private members are left out;
/// `@Scriptable("Name")` gives the type another name in Lua. A parameter's
/// default value is used when a script leaves the argument out (or passes
/// nil). What cannot be exported is reported at the member, every one at once.
///
/// The attribute reads the class body: members in extensions are not
/// exported. It sees `@MainActor` written on the class — a class isolated
/// by inheritance or a module's default isolation needs it written too — and
/// a subclass of a `@Scriptable` class cannot be `@Scriptable` itself.
@attached(member, names: named(luaClass))
@attached(extension, conformances: LuaExportable, names: named(luaTypeName))
public macro Scriptable(_ name: String? = nil) = #externalMacro(module: "FactoryMacrosPlugin", type: "ScriptableMacro")

/// Makes a struct a value scripts hold: a table of its stored properties
/// (`{ street = "Main", number = 1 }`), given back the same way, each field
/// checked (`Address.number: integer expected, got string`), built through its
/// memberwise initializer. It then works as an argument or a result of
/// exported members, and in arrays and dictionaries. A field with a default
/// value may be left out of the table; private and `@ScriptIgnored` fields
/// (which need a default) stay Swift's.
///
/// ```swift
/// @ScriptValue
/// public struct Address { public var street: String; public var number: Int }
/// ```
@attached(extension, conformances: LuaConvertible, LuaArgument, LuaResult,
          names: named(luaTypeName), named(luaArgumentName), named(fromLua), named(toLua), named(read), named(push))
public macro ScriptValue(_ name: String? = nil) = #externalMacro(module: "FactoryMacrosPlugin", type: "ScriptValueMacro")

/// Leaves a member out of `@Scriptable`'s export.
@attached(peer)
public macro ScriptIgnored() = #externalMacro(module: "FactoryMacrosPlugin", type: "ScriptIgnoredMacro")

/// Lets a Lua table implement a protocol in one attribute: generates
/// `LuaP`, the adapter whose every call into the table is checked (arguments
/// converted, the result's type checked, a missing method named), and
/// `LuaP.interface` for a plugin to export (scripts then register, implement,
/// stub and check `P`, and `check`, `graph` and the REPL know it).
///
/// ```swift
/// @ScriptImplementable
/// public protocol PaymentGateway: AnyObject {
///     func charge(amount: Int, currency: String) throws -> Bool
/// }
///
/// try context.export(LuaPaymentGateway.interface)
/// ```
///
/// Every method must be `throws` and every property `{ get throws }`: a Lua
/// implementation can fail, and the failure must reach the caller.
@attached(peer, names: prefixed(Lua))
public macro ScriptImplementable() = #externalMacro(module: "FactoryMacrosPlugin", type: "ScriptImplementableMacro")
