-- args: --timeout 1
-- status: 1
-- stderr: tostring-meta.lua:5: time limit exceeded (1.0 seconds)
-- An error object whose __tostring loops (run by the message handler).
error(setmetatable({}, { __tostring = function() while true do end end }))
