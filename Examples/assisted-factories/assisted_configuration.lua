-- The Typhoon "factory provider" article, as configurations.
--
-- A ChildViewController needs two services *and* a user known only at run
-- time; the ParentViewController should not depend on the photo service just
-- to make children. So the child is registered with a typed runtime argument
-- (assisted injection), and the parent receives a factory for it — a
-- provider — instead of the services.
--
-- The PizzaFactory has four factory methods over one injected dependency;
-- here a script implements the Swift protocol, and Swift (PizzaShop) calls it.
local ui = require "factoryhost.screens"

configuration "app" {
  register "UsersService" { scope = "singleton",
    make = function() return ui.UsersService.new { "ana", "ben", "chloe" } end },
  register "PhotoService" { scope = "singleton",
    make = function() return ui.PhotoService.new(3) end },

  register "ChildViewController" {
    args = { user = "User" },                               -- given at run time
    deps = { users = "UsersService", photos = "PhotoService" },  -- injected
    make = function(d, a) return ui.ChildViewController.new(d.users, d.photos, a.user) end,
  },
  register "ParentViewController" {
    deps = { users = "UsersService", makeChild = provider "ChildViewController" },
    make = function(d) return ui.ParentViewController.new(d.users, d.makeChild) end,
  },

  register "CreditService" { scope = "singleton", make = function() return ui.CreditService.new(100) end },
  register "PizzaFactory" {
    deps = { credit = "CreditService" },
    make = function(d)
      local function pizza(radius, ingredients) return ui.Pizza.new(d.credit, radius, ingredients) end
      local sizes = ui.Pizza.sizes()          -- the radii Swift defines, not copies of them
      return implement("PizzaFactory", {
        pizza  = function(_, radius, ingredients) return pizza(radius, ingredients) end,
        small  = function(_, ingredients) return pizza(sizes.small, ingredients) end,
        medium = function(_, ingredients) return pizza(sizes.medium, ingredients) end,
        large  = function(_, ingredients) return pizza(sizes.large, ingredients) end,
      })
    end,
  },
  register "PizzaShop" {
    deps = { factory = "PizzaFactory" },
    make = function(d) return ui.PizzaShop.new(d.factory) end,
  },
}
