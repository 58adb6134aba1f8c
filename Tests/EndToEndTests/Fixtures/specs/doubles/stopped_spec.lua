-- A test stopped by its time limit still gets its cleanup: finally,
-- after_each, spy.on put back, globals restored, the block's after_all.
local log = {}
local clock = { now = function() return "real" end }
describe("a block whose test loops", function()
  after_each(function() log[#log + 1] = "after_each" end)
  after_all(function() log[#log + 1] = "after_all" end)
  it("loops", function()
    LEAKED = true
    spy.on(clock, "now")
    finally(function() log[#log + 1] = "finally" end)
    while true do end
  end)
end)
describe("a setup that loops", function()
  before_all(function() while true do end end)
  it("is stopped", function() end)
  it("fails without running", function() log[#log + 1] = "ran without its setup" end)
end)
it("finds everything cleaned up", function()
  expect(LEAKED):to_be_nil()
  expect(clock.now()):to_be("real")
  expect(log):to_equal({ "finally", "after_each", "after_all" })
end)
-- What a stopped test built is closed, and a hook that hangs is stopped too
-- without keeping the rest of the cleanup from running.
local closes = 0
configuration "held" {
  register "table#held" { scope = "singleton", make = function() return { close = function() closes = closes + 1 end } end },
}
describe("a test that holds a singleton and loops", { config = "held" }, function()
  it("loops", function(c) c:resolve "table#held" while true do end end)
end)
describe("an outer block", function()
  after_all(function() log[#log + 1] = "outer after_all" end)
  describe("whose inner after_each hangs", function()
    after_each(function() while true do end end)
    it("passes, then its after_each hangs", function() SECOND_LEAK = true; spy.on(clock, "now") end)
  end)
end)
it("finds its container closed, and the rest cleaned up", function()
  expect(closes):to_be(1)
  expect(SECOND_LEAK):to_be_nil()
  expect(clock.now()):to_be("real")
  expect(log[#log]):to_be("outer after_all")
end)
