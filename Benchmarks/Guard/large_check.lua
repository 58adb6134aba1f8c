-- The performance guard's check case: 2,000 chained registrations in one
-- configuration, and a 1,000-configuration extends chain adding one each.
local registrations = { register "table#r0" { make = function() return {} end } }
for i = 1, 1999 do
  registrations[#registrations + 1] = register("table#r" .. i) { deps = { prev = "table#r" .. (i - 1) }, make = function() return {} end }
end
configuration "big" (registrations)
configuration "c0" { extends = "big", register "table#k0" { make = function() return {} end } }
for i = 1, 999 do
  configuration("c" .. i) {
    extends = "c" .. (i - 1),
    register("table#k" .. i) { deps = { below = "table#k" .. (i - 1), r = "table#r" .. i }, make = function() return {} end },
  }
end
-- A 500-configuration chain whose levels toggle a registration between a
-- declared scope and transient under ever more dependents (validated from
-- what each level changes: looking at every dependent again was quadratic).
scope "session"
configuration "t0" { register "table#clock" { make = function() return {} end } }
for i = 1, 500 do
  configuration("t" .. i) {
    extends = "t" .. (i - 1),
    register "table#clock" { override = true, scope = i % 2 == 0 and "session" or "transient", make = function() return {} end },
    register("table#t" .. i) { scope = "session", deps = { c = "table#clock" }, make = function() return {} end },
  }
end
