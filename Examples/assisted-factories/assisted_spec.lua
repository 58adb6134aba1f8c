require "assisted_configuration"
local ui = require "factoryhost.screens"

describe("the child screen factory", { config = "app" }, function()
  it("injects the services and takes the user at run time", function(c)
    local child = c:resolve("ChildViewController", { user = ui.User.new "ana" })
    expect(child.user.name):to_be("ana")
    expect(child.photos):to_be(c:resolve "PhotoService")   -- the singleton, injected
    expect(child.title):to_be("ana: 3 photos")
  end)

  it("is what the parent screen uses to open children", function(c)
    local parent = c:resolve "ParentViewController"
    expect(parent:open("ben").title):to_be("ben: 3 photos")
    expect(function() parent:open("zoe") end):to_fail("no user named 'zoe'")
  end)

  it("checks the runtime argument's type and presence", function(c)
    expect(function() c:resolve("ChildViewController", { user = "ana" }) end)
      :to_fail("bad runtime argument 'user' for ChildViewController")
    expect(function() c:resolve("ChildViewController") end)
      :to_fail("ChildViewController takes runtime arguments (user: User)")
    expect(function() c:resolve("ChildViewController", { user = ui.User.new "a", extra = 1 }) end)
      :to_fail("has no runtime argument 'extra'")
  end)
end)

describe("the pizza factory", { config = "app" }, function()
  it("has four factory methods over one credit service", function(c)
    local shop = c:resolve "PizzaShop"
    -- The sizes are the Swift constants PizzaShop knows, handed to the Lua factory.
    expect(require("factoryhost.screens").Pizza.sizes()):to_equal({ small = shop.smallRadius, medium = shop.mediumRadius,
                                                                      large = shop.largeRadius })
    expect(shop:order("small", {}).radius):to_be(shop.smallRadius)
    expect(shop:order("medium", { "ham" }).radius):to_be(shop.mediumRadius)
    local large = shop:order("large", { "tomato", "basil" })
    expect(large.radius):to_be(shop.largeRadius)
    expect(large.radius):to_be(20.0)
    expect(large.ingredients):to_equal({ "tomato", "basil" })
    expect(shop:order("12.5", {}).radius):to_be(12.5)
    expect(shop.orderCount):to_be(4)
  end)

  it("charges the one CreditService every pizza shares", function(c)
    local shop, credit = c:resolve "PizzaShop", c:resolve "CreditService"
    local pizza = shop:order("large", {})
    expect(credit.balance):to_be_close_to(100 - pizza.price, 1e-9)
    expect(function() for _ = 1, 20 do shop:order("large", {}) end end):to_fail("not enough credit")
  end)

  it("starts every test with a full balance (a fresh container)", function(c)
    expect(c:resolve("CreditService").balance):to_be(100.0)
  end)

  it("refuses an unknown size", function(c)
    expect(function() c:resolve("PizzaShop"):order("huge", {}) end)
      :to_fail("size must be small, medium, large or a radius (got 'huge')")
  end)
end)

describe("defining a factory twice", function()
  it("is an error naming both places", function()
    local ok, err = pcall(configuration "twice", {
      register "PizzaFactory" { make = function() end },
      register "PizzaFactory" { make = function() end },
    })
    expect(ok):to_be(false)
    expect(err):to_match("PizzaFactory is registered twice in configuration 'twice'")
    expect(err):to_match("first at .-assisted_spec.lua:64")
    expect(err):to_match("again at .-assisted_spec.lua:65")
  end)

  it("is allowed when the second says it overrides", function()
    configuration "replaced" {
      register "CreditService" { make = function() return ui.CreditService.new(1) end },
      register "CreditService" { override = true, make = function() return ui.CreditService.new(2) end },
    }
    expect(container("replaced"):resolve("CreditService").balance):to_be(2.0)
  end)

  it("is checked against the PizzaFactory interface: every method must be there", function()
    expect(function() implement("PizzaFactory", { small = function() end }) end)
      :to_fail("table does not implement PizzaFactory: missing pizza, medium, large")
  end)
end)
