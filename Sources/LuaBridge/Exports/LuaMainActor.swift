import CLuaShim

/// Calls into main-actor code from an exported member. Lua runs where its
/// host runs it — the `factoryhost` CLI, the REPL and the test worker run Lua
/// on the main thread; an embedding app chooses — so a `@MainActor` object's
/// member called from Lua on the main thread runs on the main actor, and the
/// same call from Lua on any other thread is a Lua error naming the member:
/// never a data race, never a trap.
///
/// ```swift
/// @MainActor final class CheckoutViewModel { var total = 0; func add(_ amount: Int) { total += amount } }
///
/// LuaClass<CheckoutViewModel>()
///     .method("add") { (model, amount: Int) in try LuaMainActor.run("CheckoutViewModel.add") { model.add(amount) } }
/// ```
///
/// `@Scriptable` generates these calls for a `@MainActor` type.
public enum LuaMainActor {
    /// Whether the calling thread is the main thread, where the main actor runs synchronous code.
    public static var isMainThread: Bool { fh_is_main_thread() != 0 }

    /// Runs `body` on the main actor when called on the main thread.
    ///
    /// - Throws: a `LuaError` (`.runtime`) naming `member` when called on another thread; what `body` throws.
    public static func run<R>(_ member: @autoclosure () -> String, _ body: @MainActor () throws -> R) throws -> R {
        guard isMainThread else {
            throw LuaError(.runtime, "\(member()) runs on the main actor, and Lua is not running on the process's main thread here: "
                           + "call it from Lua on the main thread (the CLI, the REPL and test workers run Lua there; "
                           + "a Swift Testing @MainActor test on Linux does not)")
        }
        // The main thread outside any task: the main actor's executor, as assumeIsolated checks.
        return try MainActor.assumeIsolated { () throws -> Unchecked<R> in Unchecked(value: try body()) }.value
    }

    /// Runs `body` on the main actor with `arguments` when called on the main
    /// thread: the arguments an exported member read from Lua (objects Lua
    /// holds too, so not `Sendable`) go to the main actor without crossing a
    /// thread — the call is synchronous, on the thread Lua runs on, or refused.
    ///
    /// ```swift
    /// .method("pay") { (model: CheckoutViewModel, order: Order) in
    ///     try LuaMainActor.run("CheckoutViewModel.pay", with: order) { order in try model.pay(order) }
    /// }
    /// ```
    ///
    /// - Throws: a `LuaError` (`.runtime`) naming `member` when called on another thread; what `body` throws.
    public static func run<Arguments, R>(_ member: @autoclosure () -> String, with arguments: Arguments,
                                         _ body: @MainActor (Arguments) throws -> R) throws -> R {
        let carried = Unchecked(value: arguments)
        return try run(member()) { try body(carried.value) }
    }

    /// Arguments carried to, and a result out of, the main actor: the caller is
    /// on the main thread too, so nothing crosses threads (`@unchecked Sendable` for that reason only).
    private struct Unchecked<Value>: @unchecked Sendable {
        let value: Value
    }
}
