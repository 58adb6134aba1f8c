-- The generic-factories article, as configurations.
--
--   VehicleFactory protocol     → an interface a script implements; the fake
--                                 container is another implementation, chosen
--                                 by configuration
--   injecting a closure         → a provider handed to VehicleController
--   Builder<Convertible>        → provider "Convertible": call it for a new one
--   PayloadBuilder<Pickup, Color> → a registration with a typed runtime
--                                 argument; its provider takes { color = … }
local v = require "factoryhost.vehicles"

local function container_of(fake)
  return implement("VehicleFactory", {
    makePickup = function(_, color) return v.Pickup.new(color, fake) end,
    makeConvertible = function() return v.Convertible.new(fake) end,
  })
end

configuration "app" {
  register "VehicleFactory" { scope = "singleton", make = function() return container_of(false) end },
  register "Garage" {
    deps = { factory = "VehicleFactory" },
    make = function(d) return v.Garage.new(d.factory) end,
  },
  register "Convertible" { make = function() return v.Convertible.new() end },
  register "Pickup" {
    args = { color = "string" },
    make = function(_, a) return v.Pickup.new(a.color) end,
  },
  register "VehicleController" {
    deps = { makePickup = provider "Pickup" },
    make = function(d)
      return v.VehicleController.new(function(color) return d.makePickup { color = color } end)
    end,
  },
}

-- Tests swap in the fakes and nothing else.
configuration "app-tests" {
  extends = "app",
  register "VehicleFactory" { scope = "singleton", override = true, make = function() return container_of(true) end },
  register "Pickup" { override = true, args = { color = "string" },
    make = function(_, a) return v.Pickup.new(a.color, true) end },
}
