-- The Typhoon "factory provider" article, as configurations.
--
-- A ChildViewController needs two services *and* a user known only at run
-- time; the ParentViewController should not depend on the photo service just
-- to make children. So the parent gets a ChildViewControllerFactory, and the
-- child is a registration with a typed runtime argument (assisted injection).
--
-- The article's point is that the factory is *generated* from its protocol:
-- the protocol's read-only properties are injected dependencies, and each of
-- its methods makes an object from its runtime arguments. Here the protocols
-- are Swift's (ChildViewControllerFactory, PizzaFactory, with their
-- signatures), and `assisted = { method = "Key" }` generates each: a method
-- makes the registration it names, passing its arguments by name. `check`
-- proves every method's arguments are the ones its registration takes.
--
-- Configuration "by-hand" writes the same two factories in Lua, as the
-- article does before Typhoon: the contrast.
local ui = require "factoryhost.screens"
local sizes = ui.Pizza.sizes()          -- the radii Swift defines, not copies of them

configuration "app" {
  register "UsersService" { scope = "singleton",
    make = function() return ui.UsersService.new { "ana", "ben", "chloe" } end },
  register "PhotoService" { scope = "singleton",
    make = function() return ui.PhotoService.new(3) end },

  register "ChildViewController" {
    args = { user = "User" },                                     -- given at run time
    deps = { users = "UsersService", photos = "PhotoService" },   -- injected
    make = function(d, a) return ui.ChildViewController.new(d.users, d.photos, a.user) end,
  },
  -- Generated: usersService and photoService are injected by type, and
  -- childViewController(user) makes a ChildViewController with { user = … }.
  register "ChildViewControllerFactory" {
    assisted = { childViewController = "ChildViewController" },
  },
  register "ParentViewController" {
    deps = { users = "UsersService", children = "ChildViewControllerFactory" },
    make = function(d) return ui.ParentViewController.new(d.users, d.children) end,
  },

  register "CreditService" { scope = "singleton", make = function() return ui.CreditService.new(100) end },
  -- The bodies of the article's four factory methods, one registration each.
  register "Pizza" {
    args = { { "radius", "number" }, { "ingredients", "table" } },
    deps = { credit = "CreditService" },
    make = function(d, a) return ui.Pizza.new(d.credit, a.radius, a.ingredients) end,
  },
  register "Pizza#small" { args = { ingredients = "table" }, deps = { credit = "CreditService" },
    make = function(d, a) return ui.Pizza.new(d.credit, sizes.small, a.ingredients) end },
  register "Pizza#medium" { args = { ingredients = "table" }, deps = { credit = "CreditService" },
    make = function(d, a) return ui.Pizza.new(d.credit, sizes.medium, a.ingredients) end },
  register "Pizza#large" { args = { ingredients = "table" }, deps = { credit = "CreditService" },
    make = function(d, a) return ui.Pizza.new(d.credit, sizes.large, a.ingredients) end },
  -- Generated: creditService is injected; each method makes its Pizza.
  register "PizzaFactory" {
    scope = "singleton",
    assisted = { pizza = "Pizza", smallPizza = "Pizza#small", mediumPizza = "Pizza#medium", largePizza = "Pizza#large" },
  },
  register "PizzaShop" {
    deps = { factory = "PizzaFactory" },
    make = function(d) return ui.PizzaShop.new(d.factory) end,
  },
}

-- The same factories by hand: what Typhoon (and `assisted`) saves writing.
configuration "by-hand" {
  extends = "app",
  register "ChildViewControllerFactory" {
    override = true,
    deps = { users = "UsersService", photos = "PhotoService" },
    make = function(d)
      return implement("ChildViewControllerFactory", {
        usersService = d.users,
        photoService = d.photos,
        childViewController = function(self, user)
          return ui.ChildViewController.new(self.usersService, self.photoService, user)
        end,
      })
    end,
  },
  register "PizzaFactory" {
    override = true, scope = "singleton",
    deps = { credit = "CreditService" },
    make = function(d)
      local function pizza(self, radius, ingredients) return ui.Pizza.new(self.creditService, radius, ingredients) end
      return implement("PizzaFactory", {
        creditService = d.credit,
        pizza       = pizza,
        smallPizza  = function(self, ingredients) return pizza(self, sizes.small, ingredients) end,
        mediumPizza = function(self, ingredients) return pizza(self, sizes.medium, ingredients) end,
        largePizza  = function(self, ingredients) return pizza(self, sizes.large, ingredients) end,
      })
    end,
  },
}
