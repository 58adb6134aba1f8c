-- args: --timeout 1
-- status: 1
-- stderr: close-coroutine-loop.lua:6: time limit exceeded (1.0 seconds)
-- A __close handler that loops, run by coroutine.close.
local co = coroutine.create(function()
  local x <close> = setmetatable({}, { __close = function() while true do end end })
  coroutine.yield()
end)
coroutine.resume(co)
coroutine.close(co)
