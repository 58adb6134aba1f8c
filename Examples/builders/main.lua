-- factoryhost run Examples/builders/main.lua
require "builders_configuration"

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

  -- PayloadBuilder<Pickup, string>: the payload is a typed runtime argument.
  local buildPickup = c:provider "Pickup"
  print("payload builder:", buildPickup { color = "orange" })
  print("wrong payload:", select(2, pcall(buildPickup, { color = 7 })))
end
