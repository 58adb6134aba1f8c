-- factoryhost run Examples/assisted-factories/main.lua
require "assisted_configuration"

-- Defining the same factory twice is an error that names both places,
-- never "undefined" as in Typhoon. (Declared before the first container, as
-- every declaration should be: `factoryhost check` runs a script up to there,
-- and reports any declaration after it as not checked.)
local _, err = pcall(function()
  configuration "twice" {
    register "PizzaFactory" { make = function() end },
    register "PizzaFactory" { make = function() end },
  }
end)
print(err)

local app = container "app"

-- The parent makes children through the injected factory; it never sees PhotoService.
local parent = app:resolve "ParentViewController"
for _, name in ipairs(parent.users:all()) do
  print(parent:open(name).title)
end

-- The factory was generated from the Swift protocol ChildViewControllerFactory:
-- its properties injected, its method making a ChildViewController.
local ui = require "factoryhost.screens"
local children = app:resolve "ChildViewControllerFactory"
print(children)
print(children:childViewController(ui.User.new "dora"))

-- Four generated factory methods, one injected CreditService (a singleton: one balance).
local shop = app:resolve "PizzaShop"
print(shop:order("small", { "tomato" }))
print(shop:order("large", { "tomato", "mozzarella", "basil" }))
print(shop:order("12", { "mushrooms" }))
print(("credit left: $%.2f"):format(app:resolve("CreditService").balance))

-- The same factories written by hand (configuration "by-hand") behave alike.
print(container("by-hand"):resolve("PizzaShop"):order("medium", { "ham" }))

