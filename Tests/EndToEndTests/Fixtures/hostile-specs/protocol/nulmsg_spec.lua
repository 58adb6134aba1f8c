describe("nulmsg", function()
  it("fails, NUL in its error message", function() error("before\0after", 0) end)
  it("passes", function() end)
end)
