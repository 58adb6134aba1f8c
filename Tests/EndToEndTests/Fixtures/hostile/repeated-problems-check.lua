-- command: check
-- status: 1
-- stderr: <none>
-- stdout: repeated-problems-check.lua:12: table#k0 is registered by 'c0' and again by 'c1' in configurations 'c1', 'c2', 'c3'
-- stdout: check stopped after 5000 problems (each counted once in every configuration it is in, so a problem may name only some of them): fix these, and check again
-- A problem in a configuration is a problem in every configuration that
-- extends it: a duplicate at each level of a 4,000-long chain is 8 million
-- problems, which took seconds and GBs to list (2.9 GB). Check stops after
-- 5,000, as a compiler stops after its error limit, and says so.
configuration "c0" { register "table#k0" { make = function() return {} end } }
for i = 1, 4000 do
  configuration("c" .. i) { extends = "c" .. (i - 1), register "table#k0" { make = function() return {} end } }
end
