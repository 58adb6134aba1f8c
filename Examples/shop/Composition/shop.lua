-- The shop's composition: what the app builds, and how the specs change it.
local shop = require "factoryhost.shop"

configuration "app" {
  register "OrderStore" { scope = "singleton", make = function() return shop.OrderStore.new() end },
  register "PaymentGateway" { scope = "singleton", params = { limit = 10000 },
    make = function(d) return shop.CardGateway.new(d.limit) end },
  register "CheckoutViewModel" {
    deps = { store = "OrderStore", gateway = "PaymentGateway" },
    make = function(d) return shop.CheckoutViewModel.new(d.store, d.gateway) end,
  },
}

-- Specs pay through a Lua fake that records what it was asked.
configuration "app-tests" {
  extends = "app",
  register "PaymentGateway" { scope = "singleton", override = true,
    make = function()
      local fake = { charged = {} }
      function fake:charge(amount, currency)
        self.charged[#self.charged + 1] = amount .. " " .. currency
        return amount < 5000
      end
      return fake
    end },
}
