local function declare(name) configuration(name) { } end
declare "a"
local c = container "a"
declare "b"
