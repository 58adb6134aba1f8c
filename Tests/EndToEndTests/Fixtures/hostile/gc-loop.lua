-- args: --timeout 1
-- status: 1
-- stderr: time limit exceeded (1.0 seconds), and the code did not stop within 1 s more
-- A finalizer that loops: Lua runs no hooks in finalizers, so the hard stop ends it.
setmetatable({}, { __gc = function() while true do end end })
collectgarbage()
