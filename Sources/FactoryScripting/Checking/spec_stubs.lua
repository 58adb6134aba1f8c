-- The spec-file stubs of check's dry run (embedded in the binary, compiled
-- only for a spec file: most runs are not specs). describe runs its body;
-- it, pending, the hooks and expect do nothing. The lines of each test and
-- hook body are recorded (what is declared there is the test's own, never
-- checked); the table is returned. Called with the functions it uses, as
-- they were before any script ran.
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
