-- args: --timeout 10
-- status: 0
-- stderr: <none>
-- stdout: 30000	true
-- 30,000 nested scopes, each opened in the one before and resolving a
-- registration bound to the outermost once: each walked up from itself to
-- find it (attack 10: quadratic, 40,000 took 27 s); an enclosing scope that
-- found it says where it is.
local N = 30000
scope "s0"
for i = 1, N do scope("s" .. i, { within = "s" .. (i - 1) }) end
configuration "app" { register "table#x" { scope = "s0", make = function() return {} end } }
local c = container "app"
local s = c:openScope "s0"
local first = s:resolve "table#x"
local same = true
for i = 1, N do
  s = s:openScope("s" .. i)
  same = same and s:resolve "table#x" == first
end
print(N, same)
