-- The Lua half of the test runner (embedded in the binary at build time):
-- what spec files call (describe, it, before_each, after_each, pending,
-- expect) and the per-test driver Swift calls once per test, so every test is
-- its own call from Swift — with its own time limit, and an error in one never
-- stops the others.
--
-- The chunk returns a table of functions for Swift: `tests()` lists the
-- collected tests, `run(index, container)` runs one with its hooks and returns
-- nil or a failure table, `matches(text, pattern, plain)` is string.find for
-- filters.
local is_a = ...                      -- Swift: is_a(value, typeName) -> boolean
-- Everything the runner calls is captured here, before any spec code runs: a
-- test that replaces a global (xpcall, tostring, string.find…) changes its
-- own world, never how the runner judges it.
local getinfo, traceback = debug.getinfo, debug.traceback
local sort, concat, insert = table.sort, table.concat, table.insert
local find, format, rep, gsub, sub = string.find, string.format, string.rep, string.gsub, string.sub
local pcall, xpcall, error, type, tostring, select = pcall, xpcall, error, type, tostring, select
local ipairs, pairs, setmetatable, getmetatable, rawget = ipairs, pairs, setmetatable, getmetatable, rawget
local mathtype, floor, abs = math.type, math.floor, math.abs
local collectgarbage = collectgarbage

local root = { name = nil, before = {}, after = {}, tags = {} }
local stack = { root }
local tests = {}
local running                         -- the test running now, if any

-- describe, it, pending and the hooks declare tests: inside a running test
-- they would be silently lost, so they are errors there (as in busted).
local misused                         -- the first such call in the running test (a pcall cannot hide it)
local function not_in_test(what)
  if running then
    local text = format("%s cannot be used inside a test (it is running in '%s'): declare tests and hooks "
                        .. "at the file's top level or in describe blocks", what, running.name)
    misused = misused or text
    error(text, 3)
  end
end

-- os.exit in a spec must not end the run (its summary, TAP plan and JUnit
-- file would be lost, and its status would be the run's): it fails the
-- test that called it, even if a pcall swallows the error.
local exit_called
os.exit = function(code)
  -- Recorded first, with nothing that can raise (no metamethod runs here).
  local kind = type(code)
  local shown = kind == "nil" and "" or (kind == "number" or kind == "boolean") and format("%s", code) or kind
  local text = "called os.exit(" .. shown .. "): tests must not end the process"
  exit_called = exit_called or text
  error(text, 2)
end

-- Where the spec file called us from (level 3: the caller of describe/it).
local function caller(level)
  local info = getinfo(level, "Sl")
  if not info then return "?", 0 end
  return info.short_src, info.currentline
end

local function options_and_body(what, name, a, b)
  if type(name) ~= "string" then
    error(format("%s: the first argument must be the name (a string), got %s", what, type(name)), 3)
  end
  local opts, fn = {}, a
  if type(a) == "table" then opts, fn = a, b end
  if fn ~= nil and type(fn) ~= "function" then
    error(format("%s '%s': the body must be a function, got %s", what, name, type(fn)), 3)
  end
  for key in pairs(opts) do
    if key ~= "tags" and key ~= "config" and key ~= "timeout" then
      error(format("%s '%s': unknown option '%s' (options: config, tags, timeout)", what, name, tostring(key)), 3)
    end
  end
  if opts.tags ~= nil and type(opts.tags) ~= "table" and type(opts.tags) ~= "string" then
    error(format("%s '%s': tags must be a string or a list of strings", what, name), 3)
  end
  if opts.config ~= nil and type(opts.config) ~= "string" then
    error(format("%s '%s': config must name a configuration (a string)", what, name), 3)
  end
  local t = opts.timeout
  if t ~= nil and (type(t) ~= "number" or t ~= t or t <= 0 or t > 86400) then
    error(format("%s '%s': timeout must be a number of seconds above 0 and at most 86400 (got %s)",
                 what, name, tostring(t)), 3)
  end
  return opts, fn
end

local function tag_list(tags)
  if type(tags) == "string" then return { tags } end
  local list = {}
  for _, tag in ipairs(tags or {}) do list[#list + 1] = tostring(tag) end
  return list
end

local function current() return stack[#stack] end

local function setting(key)
  for i = #stack, 1, -1 do
    if stack[i][key] ~= nil then return stack[i][key] end
  end
end

local function all_tags(own)
  local seen, list = {}, {}
  for i = 1, #stack do
    for _, tag in ipairs(stack[i].tags) do
      if not seen[tag] then seen[tag] = true; list[#list + 1] = tag end
    end
  end
  for _, tag in ipairs(own) do
    if not seen[tag] then seen[tag] = true; list[#list + 1] = tag end
  end
  return list
end

local function add_test(name, opts, fn, pending)
  local file, line = caller(4)
  local path = {}
  for i = 2, #stack do path[#path + 1] = stack[i].name end
  path[#path + 1] = name
  local blocks = {}
  for i = 1, #stack do blocks[i] = stack[i] end
  tests[#tests + 1] = {
    name = concat(path, " > "), path = path, file = file, line = line,
    tags = all_tags(tag_list(opts.tags)),
    config = opts.config or setting("config"),
    timeout = opts.timeout or setting("timeout"),
    pending = pending or fn == nil, fn = fn, blocks = blocks,
  }
end

function describe(name, a, b)
  not_in_test("describe")
  local opts, fn = options_and_body("describe", name, a, b)
  if fn == nil then error(format("describe '%s' needs a body: describe(name, function() … end)", name), 2) end
  local block = { name = name, before = {}, after = {}, tags = tag_list(opts.tags),
                  config = opts.config, timeout = opts.timeout }
  stack[#stack + 1] = block
  local ok, err = pcall(fn)
  stack[#stack] = nil
  if not ok then error(err, 0) end
end

function it(name, a, b)
  not_in_test("it")
  local opts, fn = options_and_body("it", name, a, b)
  add_test(name, opts, fn, false)
end

function pending(name, a, b)
  not_in_test("pending")
  local opts = options_and_body("pending", name, a, b)
  add_test(name, opts, nil, true)
end

function before_each(fn)
  not_in_test("before_each")
  if type(fn) ~= "function" then error("before_each needs a function, got " .. type(fn), 2) end
  insert(current().before, fn)
end

function after_each(fn)
  not_in_test("after_each")
  if type(fn) ~= "function" then error("after_each needs a function, got " .. type(fn), 2) end
  insert(current().after, fn)
end

-- Pretty-printing, for failure messages.

local function is_identifier(s) return type(s) == "string" and find(s, "^[%a_][%w_]*$") ~= nil end

local function pretty(value, depth, seen)
  depth, seen = depth or 0, seen or {}
  local kind = type(value)
  if kind == "string" then return (gsub(format("%q", value), "\\\n", "\\n")) end
  if kind ~= "table" then
    if kind == "number" and mathtype(value) == "float" and value == floor(value)
       and value > -1e15 and value < 1e15 then return format("%.1f", value) end
    return tostring(value)
  end
  if seen[value] then return "<cycle>" end
  if depth >= 3 then return "{…}" end
  seen[value] = true
  local parts, count = {}, #value
  for i = 1, count do parts[#parts + 1] = pretty(value[i], depth + 1, seen) end
  local keys = {}
  for key in pairs(value) do
    if not (mathtype(key) == "integer" and key >= 1 and key <= count) then keys[#keys + 1] = key end
  end
  sort(keys, function(a, b)
    local ta, tb = type(a), type(b)
    if ta ~= tb then return ta < tb end
    if ta == "string" or ta == "number" then return a < b end
    return tostring(a) < tostring(b)
  end)
  for _, key in ipairs(keys) do
    local label = is_identifier(key) and key or ("[" .. pretty(key, depth + 1, seen) .. "]")
    parts[#parts + 1] = label .. " = " .. pretty(value[key], depth + 1, seen)
  end
  seen[value] = nil
  if #parts == 0 then return "{}" end
  return "{ " .. concat(parts, ", ") .. " }"
end

-- t[key], or nil where reading it raises (a plugin's module or class table
-- raises for a member it lacks; comparing must not).
local function index_of(t, key) return t[key] end
local function field(t, key)
  local ok, value = pcall(index_of, t, key)
  if ok then return value end
  return nil
end

local function deep_equal(a, b, seen)
  if a == b then return true end
  if type(a) ~= "table" or type(b) ~= "table" then return false end
  seen = seen or {}
  if seen[a] == b then return true end
  seen[a] = b
  for key, value in pairs(a) do
    if not deep_equal(value, field(b, key), seen) then return false end
  end
  for key in pairs(b) do
    if field(a, key) == nil then return false end
  end
  return true
end

-- Expectations: expect(actual):to_equal(expected), expect(x).never:to_be_nil().

local Failure = {}
Failure.__index = Failure
Failure.__tostring = function(f) return f.where .. ": " .. f.message end

local function fail(message, expected, actual, level)
  local file, line = caller(level)
  error(setmetatable({ message = message, expected = expected, actual = actual,
                       where = file .. ":" .. line }, Failure), 0)
end

local Expectation = {}
local matchers = {}

-- Each matcher: function(actual, ...) -> passed, message, expected, actual;
-- the message has one %s, where the actual value goes.
local P = pretty
matchers.to_be = function(actual, expected)
  return actual == expected, "expected %s to be " .. P(expected), P(expected), P(actual)
end
matchers.to_equal = function(actual, expected)
  return deep_equal(actual, expected), "expected %s to equal " .. P(expected), P(expected), P(actual)
end
matchers.to_be_nil = function(actual)
  return actual == nil, "expected %s to be nil", "nil", P(actual)
end
matchers.to_be_truthy = function(actual)
  return not not actual, "expected %s to be truthy", "a truthy value", P(actual)
end
matchers.to_be_falsy = function(actual)
  return not actual, "expected %s to be falsy", "nil or false", P(actual)
end
matchers.to_be_a = function(actual, name)
  if type(name) ~= "string" then error("to_be_a needs a type name, got " .. type(name), 3) end
  return is_a(actual, name), "expected %s to be a " .. name, "a " .. name, P(actual)
end
matchers.to_contain = function(actual, item)
  local message = "expected %s to contain " .. P(item)
  if type(actual) == "string" then
    return find(actual, tostring(item), 1, true) ~= nil, message, P(item), P(actual)
  end
  if type(actual) ~= "table" then return false, message, P(item), P(actual) end
  for _, value in ipairs(actual) do
    if deep_equal(value, item) then return true, message, P(item), P(actual) end
  end
  return false, message, P(item), P(actual)
end
matchers.to_match = function(actual, pattern)
  if type(pattern) ~= "string" then error("to_match needs a pattern string, got " .. type(pattern), 3) end
  local ok, found = pcall(find, type(actual) == "string" and actual or "", pattern)
  if not ok then error("to_match: bad pattern " .. P(pattern) .. ": " .. gsub(tostring(found), "^.-: ", ""), 3) end
  return type(actual) == "string" and found ~= nil, "expected %s to match " .. P(pattern), "a string matching " .. P(pattern), P(actual)
end
matchers.to_have_length = function(actual, length)
  local ok, n = pcall(function() return #actual end)
  local message = "expected %s to have length " .. tostring(length)
  if not ok then return false, message, tostring(length), P(actual) .. " (no length)" end
  return n == length, message .. " (it has " .. tostring(n) .. ")", tostring(length), tostring(n)
end
local function compare(name, words, op)
  matchers[name] = function(actual, bound)
    local message = "expected %s to be " .. words .. " " .. P(bound)
    if type(actual) ~= "number" or type(bound) ~= "number" then
      return false, message .. " (both must be numbers)", words .. " " .. P(bound), P(actual)
    end
    return op(actual, bound), message, words .. " " .. P(bound), P(actual)
  end
end
compare("to_be_greater_than", "greater than", function(a, b) return a > b end)
compare("to_be_less_than", "less than", function(a, b) return a < b end)
compare("to_be_at_least", "at least", function(a, b) return a >= b end)
compare("to_be_at_most", "at most", function(a, b) return a <= b end)
matchers.to_be_close_to = function(actual, target, tolerance)
  tolerance = tolerance or 1e-9
  local message = "expected %s to be within " .. P(tolerance) .. " of " .. P(target)
  if type(actual) ~= "number" then return false, message, P(target), P(actual) end
  return abs(actual - target) <= tolerance, message, P(target), P(actual)
end
-- expect(fn):to_fail() / expect(fn):to_fail("text the message contains")
matchers.to_fail = function(fn, text)
  if type(fn) ~= "function" then error("to_fail needs a function to call, got " .. type(fn), 3) end
  local ok, err = pcall(fn)
  local wanted = text and ("an error containing " .. P(text)) or "an error"
  if ok then return false, "expected the function to fail" .. (text and (" with " .. P(text)) or ""), wanted, "no error" end
  local message = type(err) == "string" and err or tostring(err)
  if text == nil then return true, "expected the function not to fail (it failed with " .. P(message) .. ")", "no error", P(message) end
  return find(message, text, 1, true) ~= nil,
         "expected the function to fail with " .. P(text) .. " (it failed with " .. P(message) .. ")", wanted, P(message)
end

for name, matcher in pairs(matchers) do
  Expectation[name] = function(self, ...)
    if getmetatable(self) ~= Expectation then
      error(format("call %s with a colon: expect(x):%s(…)", name, name), 2)
    end
    local value = rawget(self, "actual")
    local passed, message, expected, actual = matcher(value, ...)
    local function text(m) return (gsub(m, "%%s", function() return pretty(value) end, 1)) end
    if rawget(self, "negated") then
      if passed then
        local negated = gsub(message, "^expected %%s to ", "expected %%s not to ", 1)
        fail(text(negated), "not " .. tostring(expected), actual, 4)
      end
    elseif not passed then
      fail(text(message), expected, actual, 4)
    end
    return self
  end
end
Expectation.__index = function(self, key)
  if key == "never" then
    return setmetatable({ actual = rawget(self, "actual"), negated = not rawget(self, "negated") }, Expectation)
  end
  local method = rawget(Expectation, key)
  if method == nil then
    local names = {}
    for name in pairs(matchers) do names[#names + 1] = name end
    sort(names)
    error(format("expect(…) has no matcher '%s' (matchers: %s)", tostring(key), concat(names, ", ")), 2)
  end
  return method
end

function expect(actual)
  return setmetatable({ actual = actual, negated = false }, Expectation)
end

-- The driver Swift calls.

local function on_error(err)
  if getmetatable(err) == Failure then return err end
  local message = type(err) == "string" and err or
                  -- a failed resolve's error object ({ message, cause }, its metatable hidden)
                  (type(err) == "table" and type(rawget(err, "message")) == "string" and rawget(err, "message")) or
                  (getmetatable(err) and getmetatable(err).__tostring and tostring(err)) or
                  format("(error object is a %s value)", type(err))
  local trace = traceback("", 2)
  -- keep the test's frames: cut where the runner's own begin
  local cut = find(trace, "\n%s*%[C%]: in %a+ 'xpcall'")
  if cut then trace = sub(trace, 1, cut - 1) end
  return { message = message, traceback = trace }
end

-- Isolation: every test starts from the file's top-level state. After the
-- file loads, the fields of _G and of every loaded module's table (the
-- standard libraries included) are recorded, with their metatables; after
-- each test they are put back: globals a test set are gone, a library
-- function it replaced (os.time, say) is back, a module it required is
-- unloaded. Tables are restored one level deep, as busted's insulate does;
-- a module table over 4,096 fields is left as it is (restoring it would cost
-- every test). The file's own top-level locals are shared by its tests.
local next, rawset, rawget = next, rawset, rawget
local getmetatable_raw = debug.getmetatable
local setmetatable_raw = debug.setmetatable
local baseline

local function fields_of(t)
  local copy, count = {}, 0
  for key, value in next, t do
    count = count + 1
    if count > 4096 then return nil end
    copy[key] = value
  end
  return copy
end

-- Values whose type shares one metatable (strings, numbers…): a test that
-- sets one (debug.setmetatable(1, mt)) or changes the string one changes them all.
local typed_values = { "", 0, false, print, coroutine.running() }
local io_input, io_output = io and io.input, io and io.output
local sethook, gethook = debug.sethook, debug.gethook
local base_io

local function record_baseline()
  baseline = { types = {} }
  local seen = {}
  local function record(t)
    if type(t) ~= "table" or seen[t] then return end
    seen[t] = true
    local fields = fields_of(t)
    if fields then baseline[#baseline + 1] = { table = t, fields = fields, meta = getmetatable_raw(t) } end
  end
  record(_G)
  record(package.loaded)
  record(package.preload)
  record(package.searchers)
  for _, module in next, package.loaded do
    if type(module) == "table" then record(module) end
  end
  for i, value in ipairs(typed_values) do
    local meta = getmetatable_raw(value)
    baseline.types[i] = meta
    record(meta)                          -- the string metatable's fields (__index, __add…)
  end
  baseline.nil_meta = getmetatable_raw(nil)
  baseline.collecting = collectgarbage("isrunning")
  if io_input then base_io = { input = io_input(), output = io_output() } end
end

-- What is not a table field: the default input and output files, the
-- metatables of nil, strings, numbers, booleans, functions and threads, a
-- debug hook, a stopped collector.
local function restore_interpreter()
  if base_io then
    if io_input() ~= base_io.input then io_input(base_io.input) end
    if io_output() ~= base_io.output then io_output(base_io.output) end
  end
  for i, value in ipairs(typed_values) do
    if getmetatable_raw(value) ~= baseline.types[i] then setmetatable_raw(value, baseline.types[i]) end
  end
  if getmetatable_raw(nil) ~= baseline.nil_meta then setmetatable_raw(nil, baseline.nil_meta) end
  if gethook() ~= nil then sethook() end
  if baseline.collecting and not collectgarbage("isrunning") then collectgarbage("restart") end
end

local function restore_baseline()
  for i = 1, #baseline do
    local entry = baseline[i]
    local t, fields = entry.table, entry.fields
    local extra
    for key in next, t do
      if fields[key] == nil then extra = extra or {}; extra[#extra + 1] = key end
    end
    if extra then for j = 1, #extra do rawset(t, extra[j], nil) end end
    for key, value in next, fields do
      if rawget(t, key) ~= value then rawset(t, key, value) end
    end
    if getmetatable_raw(t) ~= entry.meta then setmetatable_raw(t, entry.meta) end
  end
end

local function run(index, container)
  if not baseline then record_baseline() end
  local test = tests[index]
  local failure
  local started = 0
  running = test
  for _, block in ipairs(test.blocks) do
    for _, hook in ipairs(block.before) do
      if failure then break end
      local ok, err = xpcall(hook, on_error, container)
      if not ok then failure = err; failure.phase = "before_each" end
    end
    started = started + 1
    if failure then break end
  end
  if not failure then
    local ok, err = xpcall(test.fn, on_error, container)
    if not ok then failure = err end
  end
  for i = started, 1, -1 do
    local hooks = test.blocks[i].after
    for j = #hooks, 1, -1 do
      local ok, err = xpcall(hooks[j], on_error, container)
      if not ok and not failure then failure = err; failure.phase = "after_each" end
    end
  end
  running = nil
  restore_interpreter()
  restore_baseline()
  if misused and not failure then failure = { message = misused } end
  misused = nil
  if exit_called and not (failure and type(failure.message) == "string" and find(failure.message, exit_called, 1, true)) then
    -- os.exit was called and its error swallowed (a pcall), or another failure came first
    failure = { message = exit_called .. (failure and ("; the test also failed: " .. tostring(failure.message)) or ""),
                traceback = failure and failure.traceback, phase = failure and failure.phase }
  end
  exit_called = nil
  if failure then
    return { message = failure.message, where = failure.where, expected = failure.expected,
             actual = failure.actual, traceback = failure.traceback, phase = failure.phase,
             expectation = getmetatable(failure) == Failure }
  end
  return nil
end

local function list()
  if exit_called then error(exit_called, 0) end    -- the file's top level called os.exit (and swallowed the error)
  local out = {}
  for i, test in ipairs(tests) do
    out[i] = { name = test.name, path = test.path, file = test.file, line = test.line, tags = test.tags,
               config = test.config, timeout = test.timeout, pending = test.pending }
  end
  return out
end

local function matches(text, pattern, plain) return find(text, pattern, 1, plain) ~= nil end

-- os.exit called by a finalizer the collection after a test ran (Swift
-- collects once the test's container is dropped): that test's doing.
local function late_exit()
  local text = exit_called
  exit_called = nil
  return text
end

return { tests = list, run = run, matches = matches, pretty = pretty, late_exit = late_exit }
