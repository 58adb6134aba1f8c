-- args: --timeout 1
-- status: 1
-- stderr: time limit exceeded (1.0 seconds)
-- An xpcall message handler that loops (Lua runs it with hooks off after a hook error): the hard stop.
xpcall(function() error("boom") end, function() while true do end end)
