require "builders_configuration"

describe("the vehicle factory", function()
  it("makes real vehicles in the app", { config = "app" }, function(c)
    expect(c:resolve("Garage"):fill { "red" }):to_equal({ "Pickup(red)", "Convertible" })
  end)

  it("makes fakes in app-tests, which overrides only the factory and the pickup", { config = "app-tests" }, function(c)
    expect(c:resolve("Garage"):fill { "red" }):to_equal({ "FakePickup(red)", "FakeConvertible" })
    expect(c:resolve("Convertible").isFake):to_be(false)        -- inherited from app
  end)

  it("is checked against the interface when it is made", function()
    configuration "broken" {
      register "VehicleFactory" { make = function() return { makePickup = function() end } end },
    }
    expect(function() container("broken"):resolve "VehicleFactory" end)
      :to_fail("missing makeConvertible")
  end)

  it("has each result checked: a pickup maker that returns a string fails clearly", function()
    local v = require "factoryhost.vehicles"
    configuration "sloppy" {
      register "VehicleFactory" { make = function()
        return implement("VehicleFactory", { makePickup = function() return "truck" end,
                                             makeConvertible = function() return v.Convertible.new() end })
      end },
      register "Garage" { deps = { factory = "VehicleFactory" }, make = function(d) return v.Garage.new(d.factory) end },
    }
    expect(function() container("sloppy"):resolve("Garage"):fill { "red" } end)
      :to_fail("builders_spec.lua:25) returned string, expected Pickup")
  end)
end)

describe("builders", { config = "app-tests" }, function()
  it("inject a closure: the controller calls the provider twice", function(c)
    local controller = c:resolve "VehicleController"
    expect(tostring(controller.firstPickup)):to_be("FakePickup(blue)")
    expect(tostring(controller.secondPickup)):to_be("FakePickup(black)")
  end)

  it("make a new object on every call (Builder<Convertible>)", function(c)
    local build = c:provider "Convertible"
    local first, second = build(), build()
    expect(first):to_be_a("Convertible")
    expect(first).never:to_be(second)
  end)

  it("take a typed payload (PayloadBuilder<Pickup, string>)", function(c)
    local build = c:provider "Pickup"
    expect(build({ color = "teal" }).color):to_be("teal")
    expect(function() build { color = 7 } end):to_fail("bad runtime argument 'color' for Pickup (string expected, got integer)")
    expect(function() build() end):to_fail("Pickup takes runtime arguments (color: string)")
    expect(function() build { colour = "teal" } end):to_fail("Pickup has no runtime argument 'colour'")
  end)
end)
