local function inner() error("boom") end
local function outer() inner() end
outer()
