-- command: check
-- args: --timeout 1
-- status: 1
-- stdout: check stopped inside it, at stopped-inside-a-configuration-check.lua:12: time limit exceeded
-- stderr: <none>
-- output under: 2000
-- check stopped by its time limit inside a configuration's body says so: it
-- said "the script never ran it", and called each registration made in the
-- body "not inside any configuration" (5,000 false problems for a large one).
configuration "app" {
  register "table#a" { make = function() return {} end },
  (function() local t = os.clock() while os.clock() - t < 3 do end end)(),
}
