import CLua
import CLuaShim
@testable import LuaBridge

/// Counts live instances, so a test can see `deinit` run.
final class LifeCounter: @unchecked Sendable {
    private(set) var alive = 0
    private(set) var released = 0
    func born() { alive += 1 }
    func died() { alive -= 1; released += 1 }
}

/// A Swift object whose lifetime a test watches.
final class Tracked {
    let counter: LifeCounter
    let label: String
    init(_ counter: LifeCounter, _ label: String = "") {
        self.counter = counter
        self.label = label
        counter.born()
    }
    deinit { counter.died() }
}

extension LuaState {
    /// The main thread's stack height, to check that calls leave nothing behind.
    var stackTop: Int32 { mainThread.map { lua_gettop($0) } ?? -1 }
}

/// Runs `code` and expects a LuaError; returns it.
func expectLuaError(_ lua: LuaState, _ code: String, name: String = "test.lua") -> LuaError? {
    do {
        try lua.run(code, name: name)
        return nil
    } catch let error as LuaError {
        return error
    } catch {
        return nil
    }
}
