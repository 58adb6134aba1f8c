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
