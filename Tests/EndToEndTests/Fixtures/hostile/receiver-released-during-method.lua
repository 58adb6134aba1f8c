-- args:
-- status: 0
-- stderr: <none>
-- A method's receiver released by hand (__gc through the debug library) while the method runs: the release waits.
local v = require "factoryhost.vehicles"
local garage
local gc = debug.getmetatable(v.Garage.new({ makePickup = function() end, makeConvertible = function() end })).__gc
local factory = {
  makePickup = function(self, color)
    gc(garage)                      -- release the Swift Garage while its fill() runs
    local junk = {} for i = 1, 1000 do junk[i] = v.Pickup.new(color, string.rep("z", 64)) end
    return v.Pickup.new(color)
  end,
  makeConvertible = function() return v.Convertible.new() end,
}
garage = v.Garage.new(factory)
for i = 1, 3 do
  print(pcall(garage.fill, garage, {"red", "blue", "green"}))
end
