-- args: --timeout 1
-- status: 1
-- stderr: time limit exceeded (1.0 seconds)
-- After a time limit, finalizers do not run at all: this one would exit 0.
-- a finalizer that only runs at lua_close, after the limit was reported
KEEP = setmetatable({}, {__gc = function() os.exit(0) end})
while true do end
