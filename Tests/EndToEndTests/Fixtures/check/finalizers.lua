-- Nothing runs after the stop: not a __close, not a __gc.
configuration "app" { register "table#x" { make = function() return {} end } }
local doomed = setmetatable({}, { __gc = function() print("a finalizer ran"); os.exit(5) end })   -- held: only closing the state could run it
do
  local guard <close> = setmetatable({}, { __close = function() os.exit(3) end })
  pcall(container, "app")
end
os.exit(4)
