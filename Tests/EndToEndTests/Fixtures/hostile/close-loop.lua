-- args: --timeout 1
-- status: 1
-- stderr: close-loop.lua:6: time limit exceeded (1.0 seconds)
-- A __close handler that loops.
do
  local x <close> = setmetatable({}, { __close = function() while true do end end })
end
