-- command: check
-- args: --timeout 10
-- status: 0
-- stderr: <none>
-- stdout: ok: 10000 configurations, 1 registration declared (10000 with inherited ones), no problems
-- Checking a 10,000-configuration extends chain is linear (each configuration
-- flattened from its parent's): it was quadratic, 52 s, and outside the deadline.
configuration "c0" { register "table#Clock" { make = function() return {} end } }
for i = 1, 9999 do
  configuration("c" .. i) { extends = "c" .. (i - 1) }
end
