-- Spies record calls; spy.on is put back after its test; stubs double
-- interfaces that Swift code calls.
local session = require "factoryhost.session"
local clock = { now = function() return 1000 end }
local top = spy(function(x) return x * 2 end)
it("records calls, arguments and results", function()
  expect(top(21)):to_be(42)
  expect(top):to_have_been_called_times(1)
  expect(top):to_have_been_called_with(21)
  expect(spy.calls(top)[1].results[1]):to_be(42)
  spy.on(clock, "now")
  expect(clock.now()):to_be(1000)
  expect(clock.now):to_have_been_called()
end)
it("starts every test with no calls, and spy.on put back", function()
  expect(top).never:to_have_been_called()
  expect(spy.calls).never:to_be_nil()
  expect(function() expect(clock.now):to_have_been_called() end)
    :to_fail("to_have_been_called needs a spy (made by spy(fn), spy.on or stub)")
end)
it("says which calls there were", function()
  local s = spy()
  s("a", 1) s("b", { 2 })
  expect(s):to_have_been_called_with("b", { 3 })
end)
it("doubles a Swift interface, recording what Swift calls", function()
  local api = stub "AuthRemoteAPI" { signIn = function(_, user) return session.UserSession.new { user = user, token = "t" } end }
  local model = session.SignInViewModel.new(api)
  expect(model:signIn("ana", "secret")):to_be("signed in as ana")
  expect(api.signIn):to_have_been_called_with("ana", "secret")
  expect(api.signIn):to_have_been_called_times(1)
end)
it("answers nothing for a method it was not given", function()
  local lenient = stub "AuthRemoteAPI" {}
  expect(session.SignInViewModel.new(lenient):signIn("ana", "pw")):to_match("returned nothing, expected UserSession")
end)
it("fails the test on a strict stub's unexpected call, even one Swift catches", function()
  local strict = stub.strict "AuthRemoteAPI" {}
  expect(session.SignInViewModel.new(strict):signIn("ana", "pw"))
    :to_match("unexpected call to AuthRemoteAPI.signIn: the strict stub was given no signIn")
end)
it("refuses what is not an interface or not a method", function()
  expect(function() stub "UserSession" {} end):to_fail("stub \"UserSession\": UserSession is a class, not an interface")
  expect(function() stub "AuthRemoteAPl" {} end):to_fail("unknown type 'AuthRemoteAPl', did you mean 'AuthRemoteAPI'?")
  expect(function() stub "AuthRemoteAPI" { signIn = "yes" } end):to_fail("signIn is a method, so it needs a function (got string)")
  expect(function() stub "AuthRemoteAPI" { signin = function() end } end)
    :to_fail("stub \"AuthRemoteAPI\": \"signin\" is not one of its members (signIn)")
  expect(function() spy.on(clock, "later") end):to_fail("spy.on: \"later\" is missing, not a function")
  expect(function() spy(42) end):to_fail("spy(fn) needs a function (or nothing), got number")
end)
-- What the previous test's container calls as it closes is not this test's.
local closer = spy()
configuration "closing" {
  register "table#closing" { scope = "singleton", make = function() return { close = function() closer() end } end },
}
describe("a singleton that calls a spy as it closes", { config = "closing" }, function()
  it("is built", function(c) c:resolve "table#closing" end)
  it("was closed after the last test, not during this one", function() expect(closer).never:to_have_been_called() end)
end)
