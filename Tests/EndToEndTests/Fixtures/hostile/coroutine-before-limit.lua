-- args: --timeout 1
-- status: 1
-- stderr: coroutine-before-limit.lua:6: time limit exceeded (1.0 seconds)
-- A coroutine created and started before the script runs (here: at the top,
-- the way a Lua plugin's init.lua could) loops inside resume.
local co = coroutine.create(function() while true do end end)
coroutine.resume(co)
