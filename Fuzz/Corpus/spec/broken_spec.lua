describe("a broken file", function()
  it("never loads", function()
    expect(1):to_be(1)
  end
end)
