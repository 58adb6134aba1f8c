-- args: --memory-limit 8M
-- status: 1
-- stderr: memory limit exceeded
-- Every file descriptor used up, then Swift copies 3 GB: the watch still sees the process.
-- use up every file descriptor: the watchdog can no longer open /proc/self/statm
local keep = {}
while true do
  local f = io.open("/dev/null")
  if not f then break end
  keep[#keep + 1] = f
end
io.stderr:write("holding ", #keep, " descriptors\n")
local s = require "factoryhost.screens"
local big = string.rep("n", 1 << 20)
local names = {} for i = 1, 3000 do names[i] = big end   -- 3000 refs to one 1 MB string: 24 KB of Lua heap
local users = s.UsersService.new(names)                  -- Swift copies them: 3 GB
local all = users:all()
io.stderr:write("Swift holds ", #all, " MB; Lua heap ", collectgarbage("count") // 1024, " MB\n")
