import Foundation
@testable import FactoryScripting
import LuaBridge
import Testing
import ThreadTestSupport

/// The Lua state's owner check, used from several real threads at once: the
/// owner is read while the state is handed over, and a Lua implementation of a
/// Swift protocol refuses every thread but its state's owner, even as the state
/// closes.
@Suite("The Lua state's owner, asked from several threads")
struct LuaOwnerThreadTests {
    @Test func theOwnerThreadIsReadFromOtherThreadsWhileTheStateIsHandedOver() throws {
        let lua = Unchecked(try LuaState())
        let tally = Tally()
        // Thread 0 takes the state over again and again (no Lua runs meanwhile) while the others ask
        // whether they own it, as a factory or an adapter called on them does.
        onThreads(5) { thread in
            var owned = 0, lost = 0
            for _ in 0..<20_000 {
                if thread == 0 {
                    lua.value.adoptCurrentThread()
                    if !lua.value.isOnOwnerThread { lost += 1 }
                } else if lua.value.isOnOwnerThread {
                    owned += 1
                }
            }
            tally.add(["owned by a reader": owned, "lost by the adopter": lost])
        }
        #expect(tally["owned by a reader"] == 0)
        #expect(tally["lost by the adopter"] == 0)
        #expect(!lua.value.isOnOwnerThread)                   // thread 0 has it now
        lua.value.adoptCurrentThread()
        #expect(try lua.value.run("return 1 + 1", name: "x") == [2])
    }

    @Test func aLuaImplementationRefusesOtherThreadsEvenAsItsStateCloses() throws {
        let host = try makeHost()
        try host.run("""
            local s = require "factoryhost.session"
            configuration "app" {
              register "AuthRemoteAPI" { make = function()
                return { signIn = function(self, user) return s.UserSession.new { user = user, token = "t" } end }
              end },
            }
            """, name: "fake.lua")
        let api = Unchecked(try host.container("app").resolve((any AuthRemoteAPI).self))
        #expect(try api.value.signIn(user: "ana", password: "pw").user == "ana")
        let offThread = Collected<String>()
        let callFromAnotherThread = {
            let done = DispatchSemaphore(value: 0)
            Thread {
                offThread.append(message { _ = try api.value.signIn(user: "bo", password: "pw") })
                done.signal()
            }.start()
            done.wait()
        }
        callFromAnotherThread()
        host.lua.close()
        callFromAnotherThread()
        let refusal = "AuthRemoteAPI.signIn (implemented in Lua) was called on another thread"
        #expect(offThread.values.count == 2 && offThread.values.allSatisfy { $0.hasPrefix(refusal) }, "\(offThread.values)")
        #expect(message { _ = try api.value.signIn(user: "ana", password: "pw") } == "AuthRemoteAPI.signIn: the Lua state is closed")
    }
}

/// A value handed to threads the test itself keeps apart (or that are meant to be refused).
private final class Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
