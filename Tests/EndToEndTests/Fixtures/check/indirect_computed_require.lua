configuration "app" { register "table#t" { make = function() return {} end } }
local c = container "app"
local name = "latemod"; require(name)
