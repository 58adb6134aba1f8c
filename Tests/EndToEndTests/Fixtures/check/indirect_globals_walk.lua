configuration "app" { register "table#t" { make = function() return {} end } }
local c = container "app"
for name, f in pairs(_G) do if name == "configuration" then f "late" { } end end
