-- A plain-Lua dependency container, as a Lua programmer would write one in
-- sixty lines: the reference for resolving from Lua. It checks what a
-- careful hand-written container checks (unknown keys, cycles, a factory that
-- returns nothing) and caches singletons.
local Container = {}
Container.__index = Container

function Container.new()
  return setmetatable({ registrations = {}, singletons = {}, resolving = {} }, Container)
end

function Container:register(key, spec)
  if type(key) ~= "string" then error("a key must be a string", 2) end
  if type(spec.make) ~= "function" then error(key .. ": make must be a function", 2) end
  self.registrations[key] = {
    make = spec.make,
    deps = spec.deps or {},
    singleton = spec.scope == "singleton",
  }
end

function Container:resolve(key, arguments)
  local singleton = self.singletons[key]
  if singleton ~= nil then return singleton end
  local registration = self.registrations[key]
  if registration == nil then
    error("no registration for " .. tostring(key), 2)
  end
  if self.resolving[key] then error("dependency cycle through " .. key, 2) end
  self.resolving[key] = true
  local deps = {}
  for name, dependency in pairs(registration.deps) do
    local ok, value = pcall(self.resolve, self, dependency)
    if not ok then
      self.resolving[key] = nil
      error(key .. " -> " .. tostring(value), 2)
    end
    deps[name] = value
  end
  local ok, instance = pcall(registration.make, deps, arguments)
  self.resolving[key] = nil
  if not ok then error(key .. ": " .. tostring(instance), 2) end
  if instance == nil then error(key .. ": the factory returned nil", 2) end
  if registration.singleton then self.singletons[key] = instance end
  return instance
end

return Container
