-- The generic-factories article, as configurations.
--
--   VehicleFactory protocol     → an interface a script implements; the fake
--                                 container is another implementation, chosen
--                                 by configuration
--   UIColor                     → Color, an exported type: a colour from the
--                                 palette, never a bare string
--   injecting a closure         → a provider handed to VehicleController
--   Builder<Convertible>        → provider "Convertible": call it for a new one
--   PayloadBuilder<Pickup, (color: UIColor, licensePlate: String)>
--                               → a registration with two typed runtime
--                                 arguments; its provider takes
--                                 { color = Color, licensePlate = "…" }
local v = require "factoryhost.vehicles"

local function container_of(fake)
  return implement("VehicleFactory", {
    makePickup = function(_, color) return v.Pickup.new(color, nil, fake) end,
    makeConvertible = function() return v.Convertible.new(fake) end,
  })
end

-- The payload, in the article's order: the colour, then the plate.
local payload = { { "color", "Color" }, { "licensePlate", "string" } }

configuration "app" {
  register "VehicleFactory" { scope = "singleton", make = function() return container_of(false) end },
  register "Garage" {
    deps = { factory = "VehicleFactory" },
    make = function(d) return v.Garage.new(d.factory) end,
  },
  register "Convertible" { make = function() return v.Convertible.new() end },
  register "Pickup" {
    args = payload,
    make = function(_, a) return v.Pickup.new(a.color, a.licensePlate) end,
  },
  register "VehicleController" {
    deps = { makePickup = provider "Pickup" },
    make = function(d)
      -- The controller's closure takes a colour; the plate is the garage's to give.
      local plates = 0
      return v.VehicleController.new(function(color)
        plates = plates + 1
        return d.makePickup { color = color, licensePlate = ("KOO-%03d"):format(plates) }
      end)
    end,
  },
}

-- Tests swap in the fakes and nothing else.
configuration "app-tests" {
  extends = "app",
  register "VehicleFactory" { scope = "singleton", override = true, make = function() return container_of(true) end },
  register "Pickup" { override = true, args = payload,
    make = function(_, a) return v.Pickup.new(a.color, a.licensePlate, true) end },
}
