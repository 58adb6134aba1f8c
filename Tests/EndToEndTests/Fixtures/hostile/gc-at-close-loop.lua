-- args: --timeout 1
-- status: 1
-- stderr: did not stop within 1 s more
-- A finalizer that loops when the state closes, after the script ended (hooks are off there): the hard stop.
setmetatable({}, {__gc = function() while true do end end})
print("script done")
