-- args: --timeout 1
-- status: 1
-- stderr: sort-comparator.lua:6: time limit exceeded (1.0 seconds)
-- A comparator that loops inside table.sort.
local t = {} for i = 1, 100 do t[i] = i end
table.sort(t, function(a, b) while true do end end)
