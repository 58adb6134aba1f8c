describe("a runaway test", function()
  it("loops forever", { timeout = 0.3 }, function()
    while true do end
  end)

  it("still lets the next test run", function()
    expect(1):to_be(1)
  end)
end)
