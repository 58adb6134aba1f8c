-- to_equal names where two tables differ; expect.extend adds matchers.
it("names the path where tables differ", function()
  expect({ users = { { name = "ana" }, { name = "ben" } } }):to_equal({ users = { { name = "ana" }, { name = "bea" } } })
end)
it("names a key one side lacks", function()
  expect({ a = 1, ["odd key"] = { 1, 2 } }):to_equal({ a = 1, ["odd key"] = { 1, 2, 3 } })
end)
expect.extend {
  to_be_even = function(n) return type(n) == "number" and n % 2 == 0, "expected %s to be even" end,
  to_be_within = function(n, low, high)
    return n >= low and n <= high, "expected %s to be within " .. low .. " and " .. high, low .. "…" .. high
  end,
}
it("has the spec's own matchers", function()
  expect(4):to_be_even()
  expect(3).never:to_be_even()
  expect(5):to_be_within(1, 10)
  expect(3):to_be_even()
end)
it("reports a negated custom matcher", function() expect(12).never:to_be_within(1, 20) end)
it("refuses expect.extend inside a test, even under a pcall", function()
  expect(function() expect.extend { to_be_even = function() end } end):to_fail("expect.extend cannot be used inside a test")
end)
local ok, err = pcall(expect.extend, { be_odd = function() end })
local ok2, err2 = pcall(expect.extend, { to_be = function() end })
local ok3, err3 = pcall(expect.extend, { to_x = 1 })
local ok4, err4 = pcall(expect.extend, { ["to_be_\27[2Jbig"] = function() end })
it("said why at the top level", function()
  expect(err):to_match("a matcher's name starts with to_")
  -- It starts with to_: the escape character is what is wrong (it was "starts with to_").
  expect(err4):to_match("a matcher's name is letters, digits and _ after to_, as to_be_even %(got \"to_be_\\27%[2Jbig\"%)")
  expect(err2):to_match("there is a matcher to_be already")
  expect(err3):to_match("matcher to_x must be a function")
end)
