-- args: --timeout 1
-- status: 1
-- stderr: coroutine-in-coroutine.lua:6: time limit exceeded (1.0 seconds)
-- A loop two coroutines deep.
local outer = coroutine.wrap(function()
  local inner = coroutine.create(function() while true do end end)
  coroutine.resume(inner)
end)
outer()
