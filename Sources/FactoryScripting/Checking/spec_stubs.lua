-- The spec-file stubs of check's dry run (embedded in the binary, compiled
-- only for a spec file: most runs are not specs). describe runs its body;
-- it, pending, the hooks, expect (and expect.extend), spy, stub, override
-- and finally do nothing. The lines of each test and
-- hook body are recorded (what is declared there is the test's own, never
-- checked); the table is returned. Called with the functions it uses, as
-- they were before any script ran.
local getinfo, select, type, setmetatable, rawget, tostring = ...
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
  -- The configurations describes and tests name (`{ config = "app" }`), where:
  -- check reports one that is not declared (the runner would fail each test).
  local configs = {}
  bodies.configs = configs
  local function note_config(what, name, opts)
    if type(opts) == "table" and type(rawget(opts, "config")) == "string" then
      local info = getinfo(3, "Sl")
      configs[#configs + 1] = { what = what, name = tostring(name), config = rawget(opts, "config"),
                                file = info and info.short_src, line = info and info.currentline }
    end
  end
  describe = function(name, a, b)
    note_config("describe", name, a)
    local body = type(a) == "function" and a or b
    if type(body) == "function" then body() end
  end
  it = function(name, a, b) note_config("it", name, a); record(a, b) end
  pending = function() end
  before_each = function(fn) record(fn) end
  after_each = function(fn) record(fn) end
  before_all = function(fn) record(fn) end
  after_all = function(fn) record(fn) end
  finally = function() end
  override = function() return function() end end
  local function anything() return setmetatable({}, { __index = function(t) return function() return t end end }) end
  expect = setmetatable({ extend = function() end }, { __call = anything })
  spy = setmetatable({ on = function(t, key) return t and t[key] end, calls = function() return {} end,
                       clear = function() end, revert = function() end },
                     { __call = function(_, fn) return fn or function() end end })
  local function stubbed() return function() return {} end end
  stub = setmetatable({ strict = stubbed }, { __call = stubbed })
  return bodies
end
