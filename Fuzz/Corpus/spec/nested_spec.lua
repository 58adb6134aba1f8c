local s = require "factoryhost.screens"
configuration "app" { register "User" { make = function() return s.User.new("ada") end } }
describe("users", { config = "app", tags = { "fast" } }, function()
  local u
  before_each(function(c) u = c:resolve "User" end)
  after_each(function() u = nil end)
  it("has a name", function() expect(u.name):to_be("ada") end)
  it("fails", function() expect({ 1, { 2 } }):to_equal({ 1, { 3 } }) end)
  pending("later")
  describe("inner", function() it("errs", function() error({}) end) end)
end)
