configuration "app" { register "table#t" { make = function() return {} end } }
local conf = configuration
local c = container "app"
conf "late" {}
