configuration "app" { register "table#t" { make = function() return {} end } }
local c = container "app"
local dsl = _G[("configuration")]      -- attack 12: ok, exit 0
dsl "late" { register "table#x" { deps = { y = "table#missing" }, make = function() return {} end } }
