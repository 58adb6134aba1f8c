-- before_each runs outside-in, after_each inside-out, around every test.
local log = {}

describe("outer", function()
  before_each(function() log[#log + 1] = "outer before" end)
  after_each(function() log[#log + 1] = "outer after" end)

  describe("inner", function()
    before_each(function() log[#log + 1] = "inner before" end)
    after_each(function() log[#log + 1] = "inner after" end)

    it("runs the hooks outside-in", function()
      expect(log):to_equal({ "outer before", "inner before" })
    end)
  end)

  it("has run the inner hooks inside-out after the first test", function()
    expect(log):to_equal({ "outer before", "inner before", "inner after", "outer after", "outer before" })
  end)
end)
