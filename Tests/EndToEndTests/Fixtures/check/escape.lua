-- The real functions behind the dry run's guards are out of reach, and no
-- finalizer runs after the stop (it would print into the report or pick the status).
local function up(f, name)
  for i = 1, 20 do
    local n, v = debug.getupvalue(f, i)
    if n == name then return v end
    if not n then return end
  end
end
local ok = pcall(function() up(io.open, "open")("escaped.txt", "w"):write("x") end)
pcall(function() package.loaded.debug.getregistry() end)
pcall(load, string.dump(function() end))
configuration "app" { }
KEEP = setmetatable({}, { __gc = function() print("a finalizer ran"); os.exit(0) end })
local c = container "app"
configuration "late" { }
