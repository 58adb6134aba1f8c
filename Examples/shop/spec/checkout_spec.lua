local shop = require "factoryhost.shop"
require "shop"

describe("checkout", { config = "app-tests" }, function()
  it("pays through the gateway and keeps the order", function(c)
    local checkout = c:resolve "CheckoutViewModel"
    local order = shop.Order.new("A-1")
    order:add("tea", 450)
    expect(checkout:pay(order)):to_be(true)
    expect(checkout.status):to_equal("paid: A-1")
    expect(c:resolve("OrderStore").count):to_equal(1)
    expect(c:resolve("PaymentGateway").charged):to_equal({ "450 EUR" })
  end)

  it("says when the payment is declined", function(c)
    local order = shop.Order.new("B-2")
    order:add("espresso machine", 89900)
    local checkout = c:resolve "CheckoutViewModel"     -- transient: each resolve is a new screen's
    expect(checkout:pay(order)):to_be(false)
    expect(checkout.status):to_equal("declined: B-2")
  end)

  it("refuses a negative price with the Swift error's words", function()
    expect(function() shop.Order.new("C-3"):add("refund", -1) end)
      :to_fail("the price of refund cannot be negative (-1)")
  end)

  it("replaces the gateway with a stub in one test", function(c)
    override "PaymentGateway" { make = function() return stub "PaymentGateway" { charge = function() return true end } end }
    local order = shop.Order.new("D-4")
    order:add("kettle", 999999)
    expect(c:resolve("CheckoutViewModel"):pay(order)):to_be(true)
  end)
end)
