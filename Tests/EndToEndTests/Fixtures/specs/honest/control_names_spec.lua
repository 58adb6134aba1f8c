describe("d\27[2J", function()
  it("a\nb \27[32m\226\156\147 forged", function() end)
  it("tab\there", function() error("x") end)
end)
