-- A failing expectation in Lua code Swift called (a plain-table fake of
-- AuthRemoteAPI) fails the test, though SignInViewModel caught the error
-- and returned "failed: …" (the test was green).
local s = require "factoryhost.session"
it("a plain fake's failing expectation fails the test", function()
  local fake = { signIn = function(self, u, pw) expect(pw):to_be("right") return s.UserSession.new{user=u} end }
  print(s.SignInViewModel.new(fake):signIn("ana", "wrong"))
end)
it("a passing fake passes", function()
  local fake = { signIn = function(self, u, pw) expect(pw):to_be("wrong") return s.UserSession.new{user=u} end }
  s.SignInViewModel.new(fake):signIn("ana", "wrong")
end)
it("to_fail still expects a failure", function()
  expect(function() expect(1):to_be(2) end):to_fail()
end)
it("the swallowed failure is the cause, a later one its consequence", function()
  local fake = { signIn = function(self, u, pw) expect(pw):to_be("hunter2") return s.UserSession.new{user=u} end }
  local result = s.SignInViewModel.new(fake):signIn("ana", "secret")
  expect(result):to_be("signed in as ana")
end)
