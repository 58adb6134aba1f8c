local late = configuration "late"
local c = container "app"
late { }
