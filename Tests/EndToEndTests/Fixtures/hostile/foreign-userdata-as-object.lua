-- status: 0
-- stderr: <none>
-- A userdata of another library given a Swift object's metatable must never
-- be read as a Swift object (io.stdout's FILE* would be released and called).
local net = require "factoryhost.networking"
local cache = net.Cache.new()
debug.setmetatable(io.stdout, debug.getmetatable(cache))
print(pcall(function() return io.stdout:get(1) end))
print(pcall(function() return io.stdout.count end))
print(pcall(net.MovieLoader.new, io.stdout, io.stdout))
-- the function boxes too: a Swift function's upvalue passed as an object
local _, box = debug.getupvalue(net.Cache.new, 1)
print(pcall(function() return cache.get(box, 1) end))
debug.setmetatable(io.stdout, nil)
collectgarbage()
io.stderr:write("")
