require "shop"
describe("the shop", { config = "shop" }, function()
  it("greets", function() expect(resolve "string#greeting"):to_be("hello") end)
end)
describe("the shop in tests", { config = "shop-tests" }, function()
  it("fills a basket, greeting first", function(c)
    override "string#farewell" { make = function() return "ciao" end }
    expect(c:resolve("table#basket")[1]):to_be("hi")
  end)
end)
