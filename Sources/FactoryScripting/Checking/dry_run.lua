-- The Lua half of check's dry run (embedded in the binary at build time):
-- the io/os functions that would change something outside the process,
-- replaced by ones that stop the run, and the maker of stopped plugin
-- modules. `stop(place, reason)` is Swift's; the chunk returns
-- `stopped(module, reach)`, `spec_stubs()` and `loaded_files(initial)`.
local stop = ...
local format, find, type, tostring, next = string.format, string.find, type, tostring, next
local getinfo, traceback = debug.getinfo, debug.traceback
local load, loadfile, dofile, error, select = load, loadfile, dofile, error, select

-- Nothing may reach the real functions this chunk replaces (they are its
-- upvalues) or the plugins' real classes (in the registry): the dry run's
-- debug library reads stacks and nothing else.
local restricted_debug = { getinfo = getinfo, traceback = traceback }
debug = restricted_debug
if package and package.loaded then package.loaded.debug = restricted_debug end

-- Precompiled chunks can do what Lua source cannot (bytecode is not checked):
-- the dry run loads source only.
_G.load = function(chunk, name, mode, ...)
  return load(chunk, name, "t", ...)
end
_G.loadfile = function(file, mode, ...)
  return loadfile(file, "t", ...)
end
_G.dofile = function(file)
  local chunk, message = loadfile(file, "t")
  if not chunk then error(message, 2) end
  return chunk()
end

-- "file:line: " of the nearest Lua caller outside this chunk.
local function where()
  local level = 3
  while true do
    local info = getinfo(level, "Sl")
    if not info then return "" end
    if info.currentline > 0 and info.source ~= "=[factoryhost check]" then
      return info.short_src .. ":" .. info.currentline .. ": "
    end
    level = level + 1
  end
end

local function refuse(name, what)
  return function() stop(where(), name .. " " .. what) end
end

if io then
  local open, output = io.open, io.output
  io.open = function(file, mode, ...)
    if type(mode) == "string" and find(mode, "[wa+]") then
      stop(where(), format("io.open(%q, %q) would write a file", tostring(file), mode))
    end
    return open(file, mode, ...)
  end
  io.output = function(file, ...)
    if type(file) == "string" then stop(where(), format("io.output(%q) would write a file", file)) end
    return output(file, ...)
  end
  if io.popen then io.popen = refuse("io.popen", "would start a process") end
  io.tmpfile = refuse("io.tmpfile", "would create a file")
end
if os then
  os.remove = refuse("os.remove", "would remove a file")
  os.rename = refuse("os.rename", "would rename a file")
  os.tmpname = refuse("os.tmpname", "would create a file")
  os.execute = refuse("os.execute", "would start a process")
  os.exit = function(code)
    stop(where(), format("the script called os.exit(%s)", code == nil and "" or tostring(code)))
  end
end
if package then
  package.loadlib = refuse("package.loadlib", "would load native code")
  local searchpath, searchers = package.searchpath, package.searchers
  for i = 3, 4 do                                   -- the C library searchers
    local searcher = searchers and searchers[i]
    if searcher then
      searchers[i] = function(name, ...)
        local lookup = i == 3 and name or (name:match("^([^.]*)%.") or name)
        local file = searchpath(lookup, package.cpath)
        if file then stop(where(), format("require %q would load native code (%s)", name, file)) end
        return searcher(name, ...)
      end
    end
  end
end

-- A plugin module whose every function stops the run, saying what it reaches.
local function stopped(value, path, reach, seen)
  if type(value) == "function" then
    return function() stop(where(), format("%s: %s, which check never does", path, reach)) end
  elseif type(value) == "table" then
    if seen[value] then return seen[value] end
    local copy = {}
    seen[value] = copy
    for key, item in next, value do
      copy[key] = stopped(item, path == "" and tostring(key) or (path .. "." .. tostring(key)), reach, seen)
    end
    return copy
  end
  return value
end

-- For a spec file (compiled only for one: most runs are not specs): describe runs its body; it, pending, the hooks and expect
-- do nothing. The lines of each test and hook body are recorded (what is
-- declared there is the test's own, never checked); the table is returned.
local spec_stubs_source = [==[
local getinfo, select, type, setmetatable = ...
return function()
  local bodies = {}
  local function record(...)
    for i = 1, select("#", ...) do
      local fn = select(i, ...)
      if type(fn) == "function" then
        local info = getinfo(fn, "S")
        bodies[#bodies + 1] = { file = info.short_src, first = info.linedefined, last = info.lastlinedefined }
      end
    end
  end
  describe = function(name, a, b)
    local body = type(a) == "function" and a or b
    if type(body) == "function" then body() end
  end
  it = function(name, a, b) record(a, b) end
  pending = function() end
  before_each = function(fn) record(fn) end
  after_each = function(fn) record(fn) end
  expect = function() return setmetatable({}, { __index = function(t) return function() return t end end }) end
  return bodies
end
]==]
local function spec_stubs()
  return load(spec_stubs_source, "=[factoryhost check]", "t")(getinfo, select, type, setmetatable)()
end

-- The files of the modules loaded since the dry run began (what was loaded
-- before, the standard libraries, came from no file), found as `require`
-- found them: on package.path, or on `initial`, the path when the run began.
local loaded_files
if package and package.loaded then
  local loaded, preload, searchpath, rawequal = package.loaded, package.preload, package.searchpath, rawequal
  local before = {}
  for name, value in next, loaded do before[name] = value end
  loaded_files = function(initial)
    local files = {}
    for name, value in next, loaded do
      if type(name) == "string" and not rawequal(before[name], value) and preload[name] == nil then
        local file = searchpath(name, package.path) or (initial and searchpath(name, initial))
        if file then files[#files + 1] = file end
      end
    end
    return files
  end
end

return {
  stopped = function(module, reach) return stopped(module, "", reach, {}) end,
  spec_stubs = spec_stubs,
  loaded_files = loaded_files,
}
