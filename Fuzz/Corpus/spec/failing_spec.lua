describe("failing expectations", function()
  it("compares numbers", function()
    expect(1 + 1):to_be(3)
  end)

  it("compares tables deeply", function()
    expect({ name = "Alien", year = 1979, cast = { "Weaver" } })
      :to_equal({ name = "Alien", year = 1979, cast = { "Weaver", "Hurt" } })
  end)

  it("negates", function()
    expect("x").never:to_be("x")
  end)

  it("passes", function()
    expect(true):to_be_truthy()
  end)
end)
