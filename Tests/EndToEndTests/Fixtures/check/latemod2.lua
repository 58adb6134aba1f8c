configuration "late2" {}
local c = container "late2"
configuration "late2b" {}
