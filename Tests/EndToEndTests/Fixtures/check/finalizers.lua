-- Nothing runs after the stop: not a __close, not a __gc.
configuration "app" { }
local doomed = setmetatable({}, { __gc = function() os.exit(5) end })   -- held: only a collection at the end could run it
do
  local guard <close> = setmetatable({}, { __close = function() os.exit(3) end })
  pcall(container, "app")
end
os.exit(4)
