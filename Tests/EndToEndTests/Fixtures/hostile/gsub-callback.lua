-- args: --timeout 1
-- status: 1
-- stderr: gsub-callback.lua:5: time limit exceeded (1.0 seconds)
-- A loop in a callback of a C builtin.
string.gsub(string.rep("x", 10), ".", function() while true do end end)
