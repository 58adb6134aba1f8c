-- before_each runs outside-in, after_each inside-out, around every test
-- (checked in the outer after_each, so the order of tests does not matter).
local log

describe("outer", function()
  before_each(function() log = { "outer before" } end)
  after_each(function()
    log[#log + 1] = "outer after"
    if log[2] == "inner before" then
      expect(log):to_equal({ "outer before", "inner before", "inner body", "inner after", "outer after" })
    else
      expect(log):to_equal({ "outer before", "outer body", "outer after" })
    end
  end)

  describe("inner", function()
    before_each(function() log[#log + 1] = "inner before" end)
    after_each(function() log[#log + 1] = "inner after" end)

    it("runs the hooks outside-in, then inside-out", function()
      log[#log + 1] = "inner body"
      expect(log):to_equal({ "outer before", "inner before", "inner body" })
    end)
  end)

  it("runs only the outer hooks around an outer test", function()
    log[#log + 1] = "outer body"
  end)
end)
