-- args: --timeout 1 --memory-limit 2M
-- status: 1
-- stderr: time limit exceeded (1.0 seconds)
-- A full heap: the time limit's message is never refused memory.
local t = {}
local function fill() local i = #t while true do i = i + 1 t[i] = i end end
pcall(fill)
collectgarbage()
local s = {}
pcall(function() while true do s[#s+1] = {} end end)
while true do pcall(function() while true do end end) end
