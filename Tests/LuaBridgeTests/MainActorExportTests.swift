import LuaBridge
import Testing

/// A `@MainActor` view model, as most app view models are.
@MainActor final class CounterViewModel: LuaExportable {
    nonisolated static let luaTypeName = "CounterViewModel"
    var total = 0
    func add(_ amount: Int) { total += amount }

    /// Its export: each member runs on the main actor through LuaMainActor.
    nonisolated static var luaClass: LuaClass<CounterViewModel> {
        LuaClass<CounterViewModel>()
            .constructor { try LuaMainActor.run("CounterViewModel.new") { CounterViewModel() } }
            .method("add") { (model: CounterViewModel, amount: Int) in try LuaMainActor.run("CounterViewModel.add") { model.add(amount) } }
            .property("total") { model in try LuaMainActor.run("CounterViewModel.total") { model.total } }
    }
}

/// Main-actor types export (#36): their members run on the main actor when Lua
/// runs on the main thread; from Lua on any other thread a call is a Lua error
/// naming the member — never a race, never a trap.
@Suite("Main-actor exports")
struct MainActorExportTests {
    // (The main-thread case runs in the custom host, whose Lua runs on the process's main thread as the
    // CLI's does: EndToEndTests' aMainActorExportRunsOnTheMainThreadOfAHost. Swift Testing runs a
    // @MainActor test on the main actor but not on the process's main thread.)

    @Test func onAnotherThreadACallIsALuaErrorNamingTheMember() async throws {
        // A Lua state made and run on a thread that is not the main one.
        let message: String? = await Task.detached {
            do {
                let lua = try LuaState()
                try lua.setGlobal("CounterViewModel", .table(CounterViewModel.luaClass.install(in: lua)))
                _ = try lua.run("local m = CounterViewModel.new()", name: "worker.lua")
                return nil
            } catch let error as LuaError {
                return error.message
            } catch {
                return "\(error)"
            }
        }.value
        #expect(message?.hasPrefix("worker.lua:1: CounterViewModel.new runs on the main actor, and Lua is not running on the process's main thread here") == true,
                "\(message ?? "no error")")
        #expect(!LuaMainActor.isMainThread)
    }
}
