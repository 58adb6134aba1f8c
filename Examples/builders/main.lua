-- factoryhost run Examples/builders/main.lua
require "builders_configuration"
local v = require "factoryhost.vehicles"

for _, name in ipairs { "app", "app-tests" } do
  local c = container(name)
  print(("-- %s"):format(name))

  -- A protocol-typed factory, implemented by the configuration's container.
  print("garage:", table.concat(c:resolve("Garage"):fill { "red", "green" }, ", "))

  -- A closure instead of a factory: the controller gets a provider.
  local controller = c:resolve "VehicleController"
  print("controller:", controller.firstPickup, controller.secondPickup)

  -- Builder<Convertible>: every call makes a new one.
  local buildConvertible = c:provider "Convertible"
  print("builder:", buildConvertible(), buildConvertible() ~= buildConvertible())

  -- PayloadBuilder<Pickup, (color: UIColor, licensePlate: String)>: the
  -- payload is two typed runtime arguments, the colour an exported type.
  local buildPickup = c:provider "Pickup"
  print("payload builder:", buildPickup { color = v.Color.new "orange", licensePlate = "ORA-1" })
  print("wrong payload:", select(2, pcall(buildPickup, { color = "orange", licensePlate = "ORA-1" })))
end
