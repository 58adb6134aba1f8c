-- A configuration declared after the first container is never seen.
configuration "app" { register "table#x" { make = function() return {} end } }
local c = container "app"
configuration "late" { register "table#y" { deps = { x = "table#missing" }, make = function() return {} end } }
local function more() scope "never" end
require "late_module"
