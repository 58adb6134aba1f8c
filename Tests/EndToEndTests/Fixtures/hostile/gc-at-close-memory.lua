-- args: --memory-limit 1M
-- status: 1
-- stderr: memory limit exceeded
-- A finalizer run at close allocates past the limit: the process watch ends it.
setmetatable({}, {__gc = function() local t = {} for i=1,4e7 do t[i] = i end io.stderr:write("finalizer allocated ", #t, " slots\n") end})
print("script done")
