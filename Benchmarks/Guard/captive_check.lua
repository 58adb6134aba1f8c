-- The performance guard's captive case: a chain whose singleton each level
-- overrides sits above a transient path that grows a level at a time, down to
-- a session-scoped instance — a captive at every level (check exits 1). Found
-- anew at each level, it was quadratic (4,000 levels 20 s); kept from level
-- to level, it is linear.
scope "session"
configuration "p0" {
  register "table#tail" { scope = "session", make = function() return {} end },
  register "table#a0" { deps = { s = "table#tail" }, make = function() return {} end },
  register "table#holder" { scope = "singleton", deps = { a = "table#a0" }, make = function() return {} end },
}
for i = 1, 400 do
  configuration("p" .. i) {
    extends = "p" .. (i - 1),
    register("table#a" .. i) { deps = { a = "table#a" .. (i - 1) }, make = function() return {} end },
    register "table#holder" { override = true, scope = "singleton", deps = { a = "table#a" .. i }, make = function() return {} end },
  }
end
