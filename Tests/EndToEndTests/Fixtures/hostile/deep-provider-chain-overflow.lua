-- status: 1
-- stderr: failed: C stack overflow: factories nest too deeply
-- output under: 6000
-- 300 factories, each calling the next one's provider in its make, pass
-- Lua's limit of about 200 nested C calls: the message says so and why,
-- bounded; it was 4 KB of "the factory for … failed:" cut before the cause.
configuration "app" { register "string#s0" { make = function() return "end" end } }
for i = 1, 300 do
  configuration "app" {
    register("string#s" .. i) { deps = { p = provider("string#s" .. (i - 1)) }, make = function(d) return d.p() end },
  }
end
print(container("app"):resolve "string#s300")
