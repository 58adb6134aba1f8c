-- Bad input to the doubles and overrides: each is an error that says what is wrong.
require "factoryhost.session" configuration "app" {
  register "string#word" { make = function() return "hello" end },
  register "table#box" { make = function() override "string#word" { make = function() return "x" end } return {} end },
}
describe("bad input", { config = "app" }, function()
  it("to stub", function()
    expect(function() stub "\255\254" {} end):to_fail("is no interface's name")
    expect(function() stub(42) end):to_fail("stub needs the name of an interface, got number")
    expect(function() stub "AuthRemoteAPI" (7) end):to_fail("needs a table of methods, got number")
  end)
  it("to override", function(c)
    expect(function() c:resolve "table#box" end):to_fail("not while a factory is building")
    expect(function() override(3) end):to_fail("override needs a registration key (a string), got number")
    expect(function() override "string#word" (5) end):to_fail("(override \"string#word\" { make = function() … end }) expected, got integer)")
    expect(function() override "[string]" { make = function() end } end):to_fail("override \"[string]\"")
  end)
  it("to spies", function()
    expect(function() spy.calls(print) end):to_fail("spy.calls needs a spy (made by spy(fn), spy.on or stub)")
    expect(function() spy.on("t", "f") end):to_fail("spy.on needs a table and the name of its function, got string")
    expect(function() expect(spy()):to_have_been_called_times(0 / 0) end):to_fail("to_have_been_called_times needs a whole number")
    expect(function() expect(spy()):to_have_been_called_times(math.huge) end):to_fail("to_have_been_called_times needs a whole number")
  end)
end)
