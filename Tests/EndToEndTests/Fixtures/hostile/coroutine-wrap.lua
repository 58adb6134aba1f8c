-- args: --timeout 1
-- status: 1
-- stderr: coroutine-wrap.lua:5: time limit exceeded (1.0 seconds)
-- A loop inside coroutine.wrap.
local f = coroutine.wrap(function() local n = 0 while true do n = n + 1 end end)
f()
