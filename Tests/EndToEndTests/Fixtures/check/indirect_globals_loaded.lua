configuration "app" { register "table#t" { make = function() return {} end } }
local c = container "app"
local dsl = package.loaded["_G"].configuration
dsl "late" { }
