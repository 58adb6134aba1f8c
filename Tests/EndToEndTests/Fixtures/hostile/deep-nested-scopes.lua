-- status: 0
-- stderr: <none>
-- stdout: true	closed
-- 50,000 nested scopes, opened one in another and closed from the outermost:
-- closing unlisted each scope by searching the whole list (quadratic: 3 min 40 s).
local N = 50000
scope "s0"
for i = 1, N do scope("s" .. i, { within = "s" .. (i - 1) }) end
configuration "app" { register "table#x" { scope = "s" .. N, make = function() return {} end } }
local c = container "app"
local top = c:openScope "s0"
local s = top
for i = 1, N do s = s:openScope("s" .. i) end
local built = s:resolve "table#x" ~= nil
top:close()
print(built, "closed")
