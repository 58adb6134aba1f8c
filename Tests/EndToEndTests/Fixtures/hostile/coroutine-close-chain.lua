-- args: --sandbox
-- status: 0
-- stderr: <none>
-- A chain of coroutine.close inside __close handlers (Lua 5.4.4 does not count these C calls): a clean error, not a SIGSEGV.
local N = 30000
local cos = {}
for i = 1, N do
  cos[i] = coroutine.create(function()
    local x <close> = setmetatable({}, {__close = function()
      if cos[i+1] then coroutine.close(cos[i+1]) end
    end})
    coroutine.yield()
  end)
  coroutine.resume(cos[i])
end
print(coroutine.close(cos[1]))
