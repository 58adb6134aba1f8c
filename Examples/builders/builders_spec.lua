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
  local v = require "factoryhost.vehicles"

  it("inject a closure: the controller calls the provider twice", function(c)
    local controller = c:resolve "VehicleController"
    expect(tostring(controller.firstPickup)):to_be("FakePickup(blue, KOO-001)")
    expect(tostring(controller.secondPickup)):to_be("FakePickup(black, KOO-002)")
    expect(controller.firstPickup.color):to_equal(v.Color.new "blue")     -- a Color, as UIColor, not a string
  end)

  it("make a new object on every call (Builder<Convertible>)", function(c)
    local build = c:provider "Convertible"
    local first, second = build(), build()
    expect(first):to_be_a("Convertible")
    expect(first).never:to_be(second)
  end)

  -- The article's PayloadBuilder<Pickup, (color: UIColor, licensePlate: String)>:
  -- a payload of several values, each typed, the colour an exported type.
  it("take a typed multi-value payload (PayloadBuilder<Pickup, (color, licensePlate)>)", function(c)
    local build = c:provider "Pickup"
    local teal = v.Color.new "teal"
    local pickup = build { color = teal, licensePlate = "TEAL-1" }
    expect(pickup.color):to_equal(teal)
    expect(pickup.licensePlate):to_be("TEAL-1")
    expect(tostring(pickup)):to_be("FakePickup(teal, TEAL-1)")
  end)

  it("refuse a payload that is not the article's (color: Color, licensePlate: string)", function(c)
    local build = c:provider "Pickup"
    local teal = v.Color.new "teal"
    -- A string is not a colour: the registry refuses it before any factory runs.
    expect(function() build { color = "teal", licensePlate = "X" } end)
      :to_fail("bad runtime argument 'color' for Pickup (Color expected, got string)")
    expect(function() build { color = teal } end):to_fail("runtime argument 'licensePlate' of Pickup is missing (string expected)")
    expect(function() build { color = teal, licensePlate = 7 } end)
      :to_fail("bad runtime argument 'licensePlate' for Pickup (string expected, got integer)")
    expect(function() build { colour = teal, licensePlate = "X" } end):to_fail("Pickup has no runtime argument 'colour', did you mean 'color'?")
    expect(function() build() end):to_fail("Pickup takes runtime arguments (color: Color, licensePlate: string)")
  end)

  it("paint only colours from the palette", function(c)
    expect(function() v.Color.new "mauve" end)
      :to_fail("bad argument #1 to 'Color.new' (one of black, blue, green, orange, red, silver, teal, white expected, got 'mauve')")
    expect(function() c:resolve("Garage"):fill { "mauve" } end):to_fail("no paint for 'mauve'")
    expect(v.Color.new "red"):to_equal(v.Color.new "red")
    expect(v.Color.new "red").never:to_equal(v.Color.new "blue")
  end)
end)
