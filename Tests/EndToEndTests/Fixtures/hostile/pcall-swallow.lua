-- args: --timeout 1
-- status: 1
-- stderr: pcall-swallow.lua:5: time limit exceeded (1.0 seconds)
-- pcall cannot swallow the limit and go on.
while true do pcall(function() while true do end end) end
