require "assisted_configuration"
local ui = require "factoryhost.screens"

-- What the article's factories do, the same whether generated ("app") or
-- written by hand ("by-hand").
for _, config in ipairs { "app", "by-hand" } do
  describe("the child screen factory (" .. config .. ")", { config = config }, function()
    it("injects the services and takes the user at run time", function(c)
      local child = c:resolve("ChildViewControllerFactory"):childViewController(ui.User.new "ana")
      expect(child.user.name):to_be("ana")
      expect(child.photos):to_be(c:resolve "PhotoService")   -- the singleton, injected
      expect(child.title):to_be("ana: 3 photos")
    end)

    it("is what the parent screen uses to open children", function(c)
      local parent = c:resolve "ParentViewController"
      expect(parent:open("ben").title):to_be("ben: 3 photos")
      expect(function() parent:open("zoe") end):to_fail("no user named 'zoe'")
    end)
  end)

  describe("the pizza factory (" .. config .. ")", { config = config }, function()
    it("has four factory methods over one injected credit service", function(c)
      local shop = c:resolve "PizzaShop"
      expect(shop.creditService):to_be(c:resolve "CreditService")
      -- The sizes are the Swift constants PizzaShop knows, handed to Lua.
      expect(ui.Pizza.sizes()):to_equal({ small = shop.smallRadius, medium = shop.mediumRadius, large = shop.largeRadius })
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
end

describe("the generated factories", { config = "app" }, function()
  it("are generated from the Swift interfaces, not written in Lua", function(c)
    expect(tostring(c:resolve "PizzaFactory")):to_match("^PizzaFactory %(assisted factory, .-assisted_configuration.lua:%d+%)$")
    expect(tostring(c:resolve "ChildViewControllerFactory"))
      :to_match("^ChildViewControllerFactory %(assisted factory, .-assisted_configuration.lua:%d+%)$")
    -- The hand-written ones are the tables the script wrote.
    expect(tostring(container("by-hand"):resolve "PizzaFactory")):to_match("^table: ")
  end)

  it("inject the interfaces' properties", function(c)
    local children = c:resolve "ChildViewControllerFactory"
    expect(children.usersService):to_be(c:resolve "UsersService")
    expect(children.photoService):to_be(c:resolve "PhotoService")
    expect(c:resolve("PizzaFactory").creditService):to_be(c:resolve "CreditService")
  end)

  it("make each method's registration, with the method's arguments by name", function(c)
    local pizzas = c:resolve "PizzaFactory"
    local custom = pizzas:pizza(12.5, { "ham" })
    expect(custom.radius):to_be(12.5)
    expect(custom.ingredients):to_equal({ "ham" })
    expect(pizzas:smallPizza({}).radius):to_be(ui.Pizza.sizes().small)
    expect(pizzas:largePizza({ "basil" }).radius):to_be(ui.Pizza.sizes().large)
  end)

  it("check the arguments of every call", function(c)
    local pizzas = c:resolve "PizzaFactory"
    expect(function() pizzas:pizza("big", {}) end)
      :to_fail("PizzaFactory.pizza(radius: number, ingredients: table): bad runtime argument 'radius' for Pizza")
    expect(function() pizzas.smallPizza({}) end):to_fail("is a method of the factory it came from: call it as factory:smallPizza(…)")
    expect(function() c:resolve("ChildViewControllerFactory"):childViewController("ana") end)
      :to_fail("bad runtime argument 'user' for ChildViewController (User expected, got string)")
  end)

  it("cannot be changed by a script", function(c)
    local pizzas = c:resolve "PizzaFactory"
    expect(function() pizzas.smallPizza = function() return "a string" end end):to_fail("read-only")
    expect(getmetatable(pizzas)):to_be(false)
    rawset(pizzas, "smallPizza", function() return "a string" end)    -- the script's view only
    expect(c:resolve("PizzaShop"):order("small", {}).radius):to_be(ui.Pizza.sizes().small)
  end)

  it("must map every method of the interface", function()
    expect(function()
      configuration "incomplete" { register "PizzaFactory" { assisted = { pizza = "Pizza" } } }
    end):to_fail("assisted says what each method of PizzaFactory makes, and smallPizza, mediumPizza, largePizza are missing")
  end)

  it("must make what each method returns", function()
    expect(function()
      configuration "wrong-result" { register "PizzaFactory" {
        assisted = { pizza = "CreditService", smallPizza = "Pizza", mediumPizza = "Pizza", largePizza = "Pizza" } } }
    end):to_fail("PizzaFactory.pizza(radius: number, ingredients: table) returns Pizza, but it names CreditService")
  end)
end)

describe("the hand-written factories", function()
  it("are checked against the interface: every method and property must be there", function()
    expect(function() implement("PizzaFactory", { smallPizza = function() end }) end)
      :to_fail("table does not implement PizzaFactory: missing pizza, mediumPizza, largePizza, property creditService")
    expect(function()
      implement("ChildViewControllerFactory", { usersService = "ana", photoService = ui.PhotoService.new(1),
                                                childViewController = function() end })
    end):to_fail("property usersService is a string, not UsersService")
  end)

  it("have their results checked by Swift", function()
    local parent = ui.ParentViewController.new(ui.UsersService.new { "ana" }, implement("ChildViewControllerFactory", {
      usersService = ui.UsersService.new { "ana" }, photoService = ui.PhotoService.new(1),
      childViewController = function() return "not a screen" end,
    }))
    local ok, err = pcall(parent.open, parent, "ana")
    expect(ok):to_be(false)
    expect(err):to_match("ChildViewControllerFactory.childViewController %(.-assisted_spec.lua:%d+%) returned string, expected ChildViewController")
  end)
end)

-- Typhoon: "two factories from the same protocol ... it is undefined which
-- one you will invoke". Here it is an error naming both places.
describe("defining a factory twice", function()
  it("is an error naming both places", function()
    local here = debug.getinfo(1, "l").currentline
    local ok, err = pcall(configuration "twice", {
      register "PizzaFactory" { assisted = { pizza = "Pizza", smallPizza = "Pizza#small", mediumPizza = "Pizza#medium", largePizza = "Pizza#large" } },
      register "PizzaFactory" { make = function() end },
    })
    expect(ok):to_be(false)
    expect(err):to_match("PizzaFactory is registered twice in configuration 'twice'")
    expect(err):to_match("first at .-assisted_spec.lua:" .. here + 2)
    expect(err):to_match("again at .-assisted_spec.lua:" .. here + 3)
  end)

  it("is allowed when the second says it overrides", function()
    configuration "replaced" {
      register "CreditService" { make = function() return ui.CreditService.new(1) end },
      register "CreditService" { override = true, make = function() return ui.CreditService.new(2) end },
    }
    expect(container("replaced"):resolve("CreditService").balance):to_be(2.0)
  end)
end)
