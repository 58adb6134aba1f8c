setmetatable({}, { __gc = function() print("finalizer ran at close") end })
print("main chunk done")
