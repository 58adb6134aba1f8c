import FactoryRegistry
@testable import FactoryScripting
import LuaBridge
import Testing

/// A Swift conformer, to show Swift and Lua implementations are interchangeable.
final class SwiftAuth: AuthRemoteAPI {
    func signIn(user: String, password: String) throws -> UserSession { UserSession(user: user.uppercased(), token: "swift") }
}

@Suite("Lua tables implementing Swift protocols")
struct InterfaceTests {
    @Test func aLuaFakeIsCalledFromSwiftAndItsResultsAreChecked() throws {
        let host = try makeHost()
        try host.run("""
            local s = require "factoryhost.session"
            configuration "app-tests" {
              register "AuthRemoteAPI" { make = function()
                return { calls = 0, signIn = function(self, user, password)
                  self.calls = self.calls + 1
                  if password == "wrong" then return "denied" end
                  return s.UserSession.new { user = user, token = "t" .. self.calls }
                end }
              end },
            }
            """, name: "fake.lua")
        let api = try host.container("app-tests").resolve((any AuthRemoteAPI).self)
        #expect(try api.signIn(user: "ana", password: "pw").token == "t1")
        #expect(try api.signIn(user: "ana", password: "pw").token == "t2")       // the table keeps its state
        #expect(message { _ = try api.signIn(user: "ana", password: "wrong") }
                == "AuthRemoteAPI.signIn (fake.lua:4) returned string, expected UserSession")
        let model = SignInViewModel(api: api)
        #expect(model.signIn(user: "bo", password: "wrong") == "failed: AuthRemoteAPI.signIn (fake.lua:4) returned string, expected UserSession")
    }

    @Test func missingMethodsAreListed() throws {
        let host = try makeHost()
        let table = try host.lua.run("return { signOut = function() end, signIn = 3 }", name: "t")[0]
        let type = try host.types.type(named: "AuthRemoteAPI")
        // A member that is there but is no function is named with what it is, not called missing.
        #expect(message { _ = try type.value(from: table, in: host.lua) }
                == "table does not implement AuthRemoteAPI: signIn is an integer, not a function (required: signIn)")
        let empty = try host.lua.run("return {}", name: "t")[0]
        #expect(message { _ = try type.value(from: empty, in: host.lua) }
                == "table does not implement AuthRemoteAPI: missing signIn (required: signIn)")
        #expect(message { _ = try type.value(from: .integer(3), in: host.lua) } == "AuthRemoteAPI expected, got integer")
    }

    @Test func adaptersGoBackToLuaAsTheirTableAndSwiftConformersAreAccepted() throws {
        let host = try makeHost()
        let results = try host.run("""
            local s = require "factoryhost.session"
            local fake = { signIn = function(self, user) return s.UserSession.new { user = user } end }
            local vm = s.SignInViewModel.new(fake)
            configuration "app" {
              register "AuthRemoteAPI" { scope = "singleton", make = function() return fake end },
              register "SignInViewModel" { deps = { api = "AuthRemoteAPI" }, make = function(d)
                assert(d.api == fake, "the adapter comes back as the same table")
                return s.SignInViewModel.new(d.api)
              end },
            }
            return vm:signIn("cy", "pw"), container("app"):resolve("SignInViewModel"):signIn("di", "pw")
            """, name: "t.lua")
        #expect(results == ["signed in as cy", "signed in as di"])
        let api = try LuaInterface.authRemoteAPIForTests.implementation(of: .userdata(host.lua.pushObject(SwiftAuth(), type: "SwiftAuth")), in: host.lua)
        #expect(try api.signIn(user: "ed", password: "").user == "ED")
    }

    @Test func aBadInterfaceArgumentIsALuaStyleError() throws {
        let host = try makeHost()
        let text = message { try host.run("local s = require 'factoryhost.session'\ns.SignInViewModel.new({})", name: "t.lua") }
        #expect(text.hasPrefix("t.lua:2: bad argument #1 to 'SignInViewModel.new' (table does not implement AuthRemoteAPI: missing signIn (required: signIn))"))
    }
}

extension LuaInterface where Protocol == any AuthRemoteAPI {
    /// The same interface the session plugin exports, with a Swift-only adapter for the test.
    static let authRemoteAPIForTests = LuaInterface("AuthRemoteAPI", requires: ["signIn"]) { _ in SwiftAuth() }
}
