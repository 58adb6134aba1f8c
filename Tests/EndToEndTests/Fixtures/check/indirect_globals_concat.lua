configuration "app" { register "table#t" { make = function() return {} end } }
local c = container "app"
local dsl = _G["config" .. "uration"]
dsl "late" { }
