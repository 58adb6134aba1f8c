describe("crlf", function()
  it("passes", function() end)
  it("fails with a CRLF in its message", function() error("first\r\nsecond", 0) end)
end)
