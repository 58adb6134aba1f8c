-- command: check
-- status: 1
-- stderr: <none>
-- stdout: captives-by-the-thousand-check.lua:14: captive dependency: singleton table#holder1 would keep session-scoped instances after their scope closes in configuration 'captives'
-- stdout: check stopped after 5000 problems (each counted once in every configuration it is in, so a problem may name only some of them): fix these, and check again
-- stdout: 5000 problems in 1 configuration, 600 registrations
-- 300 singletons each holding a list of 300 session-scoped contributions
-- are 90,000 captives in one configuration: check stops after 5,000, and
-- says so, rather than list them all.
scope "session"
local many = {}
for i = 1, 300 do
  many[#many + 1] = register("table#part" .. i) { into = "set", scope = "session", make = function() return {} end }
  many[#many + 1] = register("table#holder" .. i) { scope = "singleton", deps = { all = "[table]" }, make = function() return {} end }
end
configuration "captives" (many)
