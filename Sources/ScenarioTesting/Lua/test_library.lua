-- The Lua half of the test runner (embedded in the binary at build time):
-- what spec files call (describe, it, before_each, after_each, pending,
-- expect) and the per-test driver Swift calls once per test, so every test is
-- its own call from Swift — with its own time limit, and an error in one never
-- stops the others.
--
-- The chunk returns a table of functions for Swift: `tests()` lists the
-- collected tests, `plan(indices)` says which will run here and in what
-- order (for before_all/after_all), `run(index, container)` runs one with its
-- hooks and returns nil or a failure table, `matches(text, pattern, plain)` is
-- string.find, `selects(index, texts, patterns)` a test's whole name matched
-- by filters.
local is_a, interface_methods, override_registration, swift_depth = ...
-- Swift: is_a(value, typeName) -> boolean; the methods of an interface;
-- override_registration(container, key, body, file, line).
-- Everything the runner calls is captured here, before any spec code runs: a
-- test that replaces a global (xpcall, tostring, string.find…) changes its
-- own world, never how the runner judges it.
local getinfo, traceback, debug_getmetatable = debug.getinfo, debug.traceback, debug.getmetatable
local sort, concat, insert = table.sort, table.concat, table.insert
local find, format, gsub, sub = string.find, string.format, string.gsub, string.sub
local pcall, xpcall, error, type, tostring, select = pcall, xpcall, error, type, tostring, select
local ipairs, pairs, setmetatable, getmetatable, rawget = ipairs, pairs, setmetatable, getmetatable, rawget
local mathtype, floor, abs = math.type, math.floor, math.abs
local collectgarbage = collectgarbage
local implement, pack, unpack, rawequal = implement, table.pack, table.unpack, rawequal

local root = { name = nil, before = {}, after = {}, before_all = {}, after_all = {}, tags = {} }
local stack = { root }
local tests = {}
local running                         -- the test running now, if any
local in_all = false                  -- a before_all or after_all hook is running (for the block, not the test)
local in_cleanup = false              -- finish_test is running a test's cleanups and hooks
local in_before_each = false          -- a test's before_each hook is running (not its body)
local test_container                  -- the running test's container (nil without a config)
-- What a test without a configuration receives for its container: using it
-- says why there is none (it was nil: "attempt to index a nil value (local 'c')").
local no_container = setmetatable({}, {
  __index = function(_, key)
    error(format("this test has no container, so it has no %q (give its describe or it a config: "
      .. "describe(\"…\", { config = \"app\" }, function() … end), or run with --config NAME)", tostring(key)), 2)
  end,
  __newindex = function() error("this test has no container (give its describe or it a config, or run with --config NAME)", 2) end,
  __tostring = function() return "no container (the test has no config)" end,
  __metatable = false,
})


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
os.exit = function(code)   -- luacheck: ignore 122 (the runner replaces it on purpose)
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
  if type(a) == "table" then opts, fn = a, b
  elseif b ~= nil then
    -- it("x", fn, { timeout = 1 }) ran with no options at all (a 5 s limit, not 1).
    error(format("%s '%s': options go before the body: %s(name, { … }, function() … end) (got a %s after it)",
                 what, name, what, type(b)), 3)
  end
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

-- A describe's or test's name as reports show it: at most ~256 bytes (its
-- start and end, cut between UTF-8 characters), so a name built from data
-- (a 4 MB string) costs no more than any other in every report and filter.
local name_limit, name_head, name_tail = 256, 192, 48
local byte = string.byte
local function bounded_name(name)
  local n = #name
  if n <= name_limit then return name end
  local head = name_head
  while head > 0 and (byte(name, head + 1) or 0) >= 0x80 and (byte(name, head + 1) or 0) < 0xC0 do head = head - 1 end
  local tail = n - name_tail + 1
  while tail <= n and byte(name, tail) >= 0x80 and byte(name, tail) < 0xC0 do tail = tail + 1 end
  return sub(name, 1, head) .. format("… (%d bytes left out) …", tail - head - 1) .. sub(name, tail)
end

local function tag_list(tags)
  if type(tags) == "string" then return { tags } end
  local list = {}
  for _, tag in ipairs(tags or {}) do list[#list + 1] = bounded_name(tostring(tag)) end
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
  local path, full_path = {}, {}
  for i = 2, #stack do path[#path + 1] = stack[i].name; full_path[#full_path + 1] = stack[i].full_name end
  path[#path + 1] = bounded_name(name)
  full_path[#full_path + 1] = name
  local blocks = {}
  for i = 1, #stack do blocks[i] = stack[i] end
  tests[#tests + 1] = {
    name = concat(path, " > "), path = path, full_path = full_path, file = file, line = line,
    tags = all_tags(tag_list(opts.tags)),
    config = opts.config or setting("config"),
    -- Where the config was given (a typo in it is reported there, not at each test).
    config_at = opts.config and format("%s:%d", file, line) or setting("config_at"),
    timeout = opts.timeout or setting("timeout"),
    pending = pending or fn == nil, fn = fn, blocks = blocks,
  }
end

function describe(name, a, b)
  not_in_test("describe")
  local opts, fn = options_and_body("describe", name, a, b)
  if fn == nil then error(format("describe '%s' needs a body: describe(name, function() … end)", name), 2) end
  local block = { name = bounded_name(name), full_name = name, before = {}, after = {}, before_all = {}, after_all = {}, tags = tag_list(opts.tags),
                  config = opts.config, config_at = opts.config and format("%s:%d", caller(3)), timeout = opts.timeout }
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

-- before_all / after_all: once for the tests of their block (or the file)
-- that run in this process — before the first, after the last — with no
-- container of their own (each test still gets a fresh one). What they make
-- is kept in locals: globals go back to the file's after every test.
function before_all(fn)
  not_in_test("before_all")
  if type(fn) ~= "function" then error("before_all needs a function, got " .. type(fn), 2) end
  insert(current().before_all, fn)
end

function after_all(fn)
  not_in_test("after_all")
  if type(fn) ~= "function" then error("after_all needs a function, got " .. type(fn), 2) end
  insert(current().after_all, fn)
end

-- override "HTTPSession" { make = … } in a test or its before_each: this
-- test's container is replaced by one with that registration (checked as
-- any registration is), before it keeps anything; gone in the next test.
local unfinished_override                  -- `override "K"` whose body never came: "file:line: K"

function override(key)
  if type(key) ~= "string" then error("override needs a registration key (a string), got " .. type(key), 2) end
  if not running or in_all or in_cleanup then
    error(format("override \"%s\" is for a test or its before_each: each test's container is its own", key), 2)
  end
  local file, line = caller(3)
  if unfinished_override then error("override " .. unfinished_override .. " was given no body", 2) end
  unfinished_override = format("\"%s\" (%s:%d)", key, file, line)
  return function(body)
    unfinished_override = nil
    local ok, err = pcall(override_registration, test_container, key, body, file, line,
                          in_before_each and "before_each" or "test")
    if not ok then error(err, 2) end
  end
end

-- finally(fn) inside a test: runs when the test ends, passed or failed,
-- before its after_each hooks (the last registered first).
function finally(fn)
  if not running or in_all then error("finally is for inside a test: it runs when the test ends", 2) end
  if not running.finally then error("finally: this test's cleanups have run already (finally is for the test and its before_each)", 2) end
  if type(fn) ~= "function" then error("finally needs a function, got " .. type(fn), 2) end
  insert(running.finally, fn)
end

-- Pretty-printing, for failure messages.

local function is_identifier(s) return type(s) == "string" and find(s, "^[%a_][%w_]*$") ~= nil end

local function pretty(value, depth, seen)
  depth, seen = depth or 0, seen or {}
  local kind = type(value)
  if kind == "string" then
    -- A message stays readable: a long string shows its start and its length.
    if #value > 200 then
      return (gsub(format("%q", sub(value, 1, 160)), "\\\n", "\\n")) .. "…(" .. #value .. " bytes)"
    end
    return (gsub(format("%q", value), "\\\n", "\\n"))
  end
  if kind ~= "table" then
    if value ~= value then return "nan" end
    if kind == "number" and mathtype(value) == "float" and value == floor(value)
       and value > -1e15 and value < 1e15 then return format("%.1f", value) end
    return tostring(value)
  end
  if seen[value] then return "<cycle>" end
  if depth >= 3 then return "{…}" end
  seen[value] = true
  local parts, count = {}, #value
  -- At most 20 entries of a table: a message stays under a few KB.
  local limit = 20
  for i = 1, (count < limit and count or limit) do parts[#parts + 1] = pretty(value[i], depth + 1, seen) end
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
    if #parts >= limit then break end
    local label = is_identifier(key) and key or ("[" .. pretty(key, depth + 1, seen) .. "]")
    parts[#parts + 1] = label .. " = " .. pretty(value[key], depth + 1, seen)
  end
  local left = count + #keys - #parts
  if left > 0 then parts[#parts + 1] = "…(" .. left .. " more)" end
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

-- Both walks below use a stack of their own, not recursion: a table is as
-- deep as the test made it (100,000 levels compare like 3).
local function deep_equal(a, b)
  local seen, pending, n = {}, { a, b }, 2
  while n > 0 do
    local x, y = pending[n - 1], pending[n]
    pending[n - 1], pending[n], n = nil, nil, n - 2
    if x ~= y then
      if type(x) ~= "table" or type(y) ~= "table" then return false end
      -- Each pair once (a set of pairs, not one partner per table: two
      -- cycles of different lengths alternated partners forever).
      local partners = seen[x]
      if not partners then partners = {}; seen[x] = partners end
      if not partners[y] then
        partners[y] = true
        for key, value in pairs(x) do
          pending[n + 1], pending[n + 2], n = value, field(y, key), n + 2
        end
        -- And what y has, read from x (an __index may answer for a key x lacks).
        for key, value in pairs(y) do
          pending[n + 1], pending[n + 2], n = field(x, key), value, n + 2
        end
      end
    end
  end
  return true
end

-- Where two values deep_equal finds unequal first differ (keys in sorted
-- order): the path from the top (`.users[2].name`) and the two values there.
local function key_order(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then return ta < tb end
  if ta == "string" or ta == "number" then return a < b end
  return tostring(a) < tostring(b)
end
local function key_path(key)
  if is_identifier(key) then return "." .. key end
  return "[" .. pretty(key, 2) .. "]"
end
-- The path to a node of the walk (each node: { x, y, key, parent }), its
-- middle left out when it is long.
local function path_of(node)
  local keys = {}
  while node and node.parent do keys[#keys + 1] = key_path(node.key); node = node.parent end
  local count, parts = #keys, {}
  for i = count, 1, -1 do
    if count > 24 and i == count - 10 then
      parts[#parts + 1] = "…(" .. (count - 20) .. " more levels)…"
    elseif count <= 24 or i > count - 10 or i <= 10 then
      parts[#parts + 1] = keys[i]
    end
  end
  return concat(parts)
end
local function difference(a, b)
  local seen, pending, n = {}, { { a, b } }, 1
  while n > 0 do
    local node = pending[n]
    pending[n], n = nil, n - 1
    local x, y = node[1], node[2]
    if x ~= y then
      if type(x) ~= "table" or type(y) ~= "table" then return path_of(node), x, y end
      local partners = seen[x]
      if not partners then partners = {}; seen[x] = partners end
      if not partners[y] then
        partners[y] = true
        local children = {}
        local keys = {}
        for key in pairs(x) do keys[#keys + 1] = key end
        sort(keys, key_order)
        for _, key in ipairs(keys) do children[#children + 1] = { x[key], field(y, key), key = key, parent = node } end
        keys = {}
        for key in pairs(y) do keys[#keys + 1] = key end
        sort(keys, key_order)
        for _, key in ipairs(keys) do children[#children + 1] = { field(x, key), y[key], key = key, parent = node } end
        for i = #children, 1, -1 do n = n + 1; pending[n] = children[i] end    -- the first key is looked at first
      end
    end
  end
  return nil
end

-- Expectations: expect(actual):to_equal(expected), expect(x).never:to_be_nil().

local Failure = {}
Failure.__index = Failure
Failure.__tostring = function(f) return f.where .. ": " .. f.message end

-- A failure raised inside a stub's method (an expectation, a strict stub's
-- unexpected call), or in any Lua code Swift called during the test (a
-- plain-table fake of a protocol, an implement(…)), reaches the test even if
-- the code that called it (Swift, a pcall) swallowed it: Swift turned it into
-- an error value of its own, and the test went green.
local in_stub = 0
local sticky
local test_depth = 0                  -- the Swift calls running when the test began (see run)

local function fail(message, expected, actual, level)
  local file, line = caller(level)
  local failure = setmetatable({ message = message, expected = expected, actual = actual,
                                 where = file .. ":" .. line }, Failure)
  if running and not sticky then
    if in_stub > 0 then
      sticky = failure
      failure.swallowed_in = "inside a stub's method"
    elseif swift_depth and swift_depth() > test_depth then
      sticky = failure
      failure.swallowed_in = "in Lua code that Swift called"
    end
  end
  error(failure, 0)
end

local Expectation = {}
local matchers = {}
local spies = setmetatable({}, { __mode = "k" })     -- spy function → its record (see spy below)

-- Each matcher: function(actual, ...) -> passed, message, expected, actual;
-- the message has one %s, where the actual value goes.
local P = pretty
matchers.to_be = function(actual, expected)
  return actual == expected, "expected %s to be " .. P(expected), P(expected), P(actual)
end
matchers.to_equal = function(actual, expected)
  if deep_equal(actual, expected) then return true, "expected %s to equal " .. P(expected), P(expected), P(actual) end
  local at, got, wanted = difference(actual, expected)
  local where = (at and at ~= "") and (" (they differ at " .. at .. ": " .. P(got) .. " where " .. P(wanted) .. " was expected)") or ""
  return false, "expected %s to equal " .. P(expected) .. where, P(expected), P(actual)
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
  local before = sticky
  local ok, err = pcall(fn)
  if not ok then sticky = before end                             -- the failure it expected (a strict stub's refusal, say) is no sticky one
  local wanted = text and ("an error containing " .. P(text)) or "an error"
  if ok then return false, "expected the function to fail" .. (text and (" with " .. P(text)) or ""), wanted, "no error" end
  local message = type(err) == "string" and err or tostring(err)
  -- (Said as `never` says it: a matcher's fifth result marks a message already negated.)
  if text == nil then return true, "expected the function not to fail (it failed with " .. P(message) .. ")", "no error", P(message), true end
  -- An error that is a table or userdata with no text of its own (its tostring is its
  -- address, "table: 0x55…") holds no message: "x" is not found in its address.
  if (type(err) == "table" or type(err) == "userdata") and find(message, "^" .. type(err) .. ": 0?x?%x+$") then
    return false, "expected the function to fail with " .. P(text) .. " (it failed with a " .. type(err)
           .. " error value with no message: " .. P(err) .. ")", wanted, P(err)
  end
  if find(message, text, 1, true) ~= nil then
    return true, "expected the function not to fail with " .. P(text) .. " (it failed with " .. P(message) .. ")",
           "no error containing " .. P(text), P(message), true
  end
  return false, "expected the function to fail with " .. P(text) .. " (it failed with " .. P(message) .. ")", wanted, P(message)
end

local function install_matcher(name, matcher)
  Expectation[name] = function(self, ...)
    if getmetatable(self) ~= Expectation then
      error(format("call %s with a colon: expect(x):%s(…)", name, name), 2)
    end
    local value = rawget(self, "actual")
    local passed, message, expected, actual, negative = matcher(value, ...)
    if type(message) ~= "string" then
      error(format("the matcher %s returned %s as its message (a string, with %%s where the value goes)", name, type(message)), 2)
    end
    if expected ~= nil then expected = tostring(expected) end
    if actual == nil then actual = P(value) else actual = tostring(actual) end
    local function text(m)
      return (gsub(m, "%%s", function() return spies[value] and spies[value].name or pretty(value) end, 1))
    end
    if rawget(self, "negated") then
      if passed and negative then
        fail(text(message), expected, actual, 4)      -- "expected the function not to fail", expected "no error"
      elseif passed then
        local negated, changed = gsub(message, "^expected %%s to ", "expected %%s not to ", 1)
        if changed == 0 then negated = "expected the opposite of: " .. message end
        fail(text(negated), expected and ("not " .. expected), actual, 4)
      end
    elseif not passed then
      fail(text(message), expected, actual, 4)
    end
    return self
  end
end
for name, matcher in pairs(matchers) do install_matcher(name, matcher) end
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

-- expect(actual), and expect.extend { to_be_even = function(actual, …)
-- return passed, "expected %s to be even" end }: matchers of the spec's own,
-- for the rest of its file (declared outside tests, as hooks are).
expect = setmetatable({}, {
  __call = function(_, actual) return setmetatable({ actual = actual, negated = false }, Expectation) end,
  __index = {
    extend = function(new)
      not_in_test("expect.extend")
      if type(new) ~= "table" then error("expect.extend needs a table of matchers, got " .. type(new), 2) end
      local names = {}
      for name, matcher in pairs(new) do
        if type(name) ~= "string" or not find(name, "^to_") then
          error("expect.extend: a matcher's name starts with to_ (got " .. P(name) .. ")", 2)
        end
        if not find(name, "^to_[%a_][%w_]*$") then
          -- (It starts with to_: what is wrong is elsewhere in it.)
          error("expect.extend: a matcher's name is letters, digits and _ after to_, as to_be_even (got " .. P(name) .. ")", 2)
        end
        if type(matcher) ~= "function" then
          error(format("expect.extend: matcher %s must be a function(actual, …) returning passed, message (got %s)", name, type(matcher)), 2)
        end
        if matchers[name] then error(format("expect.extend: there is a matcher %s already", name), 2) end
        names[#names + 1] = name
      end
      for _, name in ipairs(names) do
        matchers[name] = new[name]
        install_matcher(name, new[name])
      end
    end,
  },
  __newindex = function() error("expect is the runner's: add matchers with expect.extend { … }", 2) end,
})

-- Spies: spy(fn) is a function that calls fn and records each call's
-- arguments and results; spy.on(t, "name") puts one in place of t.name
-- (put back after the test that did it). stub "Interface" { … } implements
-- an interface with spies. Records start empty in every test.
local installed = {}                                 -- the spies spy.on put in place in the running test

local function spy_record(s, what, level)
  local record = spies[s]
  if not record then error(format("%s needs a spy (made by spy(fn), spy.on or stub), got %s", what, P(s)), level or 3) end
  return record
end

local function make_spy(fn, name, receiver)
  local record = { calls = {}, name = name or "the spy", receiver = receiver }
  local function finish(call, ok, ...)
    if receiver ~= nil then in_stub = in_stub - 1 end
    if not ok then error((...), 0) end
    call.results = pack(...)
    return ...
  end
  local function spy_fn(...)
    local args = pack(...)
    if receiver ~= nil and args[1] == receiver then             -- a method: the receiver is not an argument
      args = pack(select(2, ...))
    end
    local call = { args = args }
    record.calls[#record.calls + 1] = call
    if receiver == nil then
      local results = pack(fn(...))
      call.results = results
      return unpack(results, 1, results.n)
    end
    in_stub = in_stub + 1                                        -- a stub's method: see `sticky`
    return finish(call, pcall(fn, ...))
  end
  spies[spy_fn] = record
  return spy_fn
end

local function args_text(args)
  local parts = {}
  for i = 1, args.n do parts[i] = P(args[i]) end
  return "(" .. concat(parts, ", ") .. ")"
end

spy = setmetatable({
  on = function(t, key)
    if type(t) ~= "table" then error("spy.on needs a table and the name of its function, got " .. type(t), 2) end
    local original = t[key]
    if type(original) ~= "function" then
      error(format("spy.on: %s is %s, not a function", P(key), original == nil and "missing" or ("a " .. type(original))), 2)
    end
    local s = make_spy(original, "the spy on " .. (is_identifier(key) and key or P(key)))
    spies[s].revert = function()
      if rawequal(t[key], s) then t[key] = original return true end
      return false
    end
    t[key] = s
    if running and not in_all then installed[#installed + 1] = s end  -- a test's: put back after it
    return s
  end,
  -- The calls so far: { { args = { n = …, … }, results = { n = …, … } }, … }.
  calls = function(s) return spy_record(s, "spy.calls").calls end,
  clear = function(s) spy_record(s, "spy.clear").calls = {} end,
  revert = function(s)
    local record = spy_record(s, "spy.revert")
    if record.revert then
      if not record.revert() then
        error(record.name .. " is no longer in place (another spy.on replaced it): revert that one first", 2)
      end
      record.revert = nil
    end
  end,
}, {
  __call = function(_, fn)
    if fn ~= nil and type(fn) ~= "function" then error("spy(fn) needs a function (or nothing), got " .. type(fn), 2) end
    return make_spy(fn or function() end)
  end,
})

matchers.to_have_been_called = function(s)
  local record = spy_record(s, "to_have_been_called", 5)
  return #record.calls > 0, "expected %s to have been called", "at least one call", #record.calls .. " calls"
end
matchers.to_have_been_called_times = function(s, times)
  local record = spy_record(s, "to_have_been_called_times", 5)
  if type(times) == "number" and times == floor(times) and times >= 0 and times < 2^53 then times = floor(times) end
  if mathtype(times) ~= "integer" then error("to_have_been_called_times needs a whole number, got " .. P(times), 4) end
  local function count(n) return n == 1 and "once" or n .. " times" end
  return #record.calls == times, "expected %s to have been called " .. count(times) .. " (it was called " .. count(#record.calls) .. ")",
         times .. (times == 1 and " call" or " calls"), #record.calls .. (#record.calls == 1 and " call" or " calls")
end
matchers.to_have_been_called_with = function(s, ...)
  local record = spy_record(s, "to_have_been_called_with", 5)
  local wanted = pack(...)
  local seen = {}
  for _, call in ipairs(record.calls) do
    local same = call.args.n == wanted.n
    for i = 1, wanted.n do
      if not same then break end
      same = deep_equal(call.args[i], wanted[i])
    end
    if same then return true, "expected %s to have been called with " .. args_text(wanted), args_text(wanted), args_text(call.args) end
    seen[#seen + 1] = args_text(call.args)
  end
  local shown = #seen
  if #seen > 10 then                                             -- the first ten, and how many more
    local more = #seen - 10
    for i = #seen, 11, -1 do seen[i] = nil end
    seen[11] = "… and " .. more .. " more"
  end
  local calls = shown == 0 and "it was never called" or ("its calls: " .. concat(seen, ", "))
  return false, "expected %s to have been called with " .. args_text(wanted) .. " (" .. calls .. ")",
         args_text(wanted), shown == 0 and "no calls" or concat(seen, ", ")
end

for _, name in ipairs { "to_have_been_called", "to_have_been_called_times", "to_have_been_called_with" } do
  install_matcher(name, matchers[name])
end

-- stub "AuthRemoteAPI" { signIn = function(self, user, password) … end }:
-- a table implementing the interface, every method a spy (a method not
-- given returns nothing); stub.strict fails on a call to one not given.
local function make_stub(name, strict)
  if type(name) ~= "string" then error("stub needs the name of an interface, got " .. type(name), 3) end
  local ok, methods, properties = pcall(interface_methods, name)
  if not ok then error("stub: " .. P(name) .. " is no interface's name", 3) end
  if not methods then error("stub " .. P(name) .. ": " .. properties, 3) end
  return function(body)
    body = body or {}
    if type(body) ~= "table" then error(format("stub %s needs a table of methods, got %s", P(name), type(body)), 2) end
    local known, members = {}, {}
    for _, method in ipairs(methods) do known[method] = "method"; members[#members + 1] = method end
    for _, property in ipairs(properties or {}) do known[property] = "property"; members[#members + 1] = property end
    local implementation = {}
    for key, value in pairs(body) do
      if not known[key] then
        error(format("stub %s: %s is not one of its members (%s)", P(name), P(key), concat(members, ", ")), 2)
      end
      if known[key] == "method" and type(value) ~= "function" then
        error(format("stub %s: %s is a method, so it needs a function (got %s)", P(name), key, type(value)), 2)
      end
      implementation[key] = value                               -- properties, as the interface needs them
    end
    for _, method in ipairs(methods) do
      local given = body[method]
      if given == nil then
        given = strict and function()
          local text = format("unexpected call to %s.%s: the strict stub was given no %s", name, method, method)
          if running and not sticky then sticky = { message = text } end
          error(text, 0)                                           -- no place: its caller is Swift or the runner
        end or function() end
      end
      implementation[method] = make_spy(given, name .. "." .. method, implementation)
    end
    local implemented, err = pcall(implement, name, implementation)
    if not implemented then
      error(format("stub %s: %s", P(name), (gsub(tostring(err), "^bad argument #2 to 'implement' %((.*)%)$", "%1"))), 2)
    end
    return implementation
  end
end
stub = setmetatable({ strict = function(name) return make_stub(name, true) end },
                    { __call = function(_, name) return make_stub(name, false) end })

-- The driver Swift calls.

local function on_error(err)
  local meta = debug_getmetatable(err)
  if meta == Failure then return err end
  local described, text = false, nil
  if type(meta) == "table" and rawget(meta, "__tostring") then described, text = pcall(tostring, err) end
  local message = type(err) == "string" and err or
                  -- a failed resolve's error object ({ message, cause }, its metatable hidden)
                  (type(err) == "table" and type(rawget(err, "message")) == "string" and rawget(err, "message")) or
                  (described and type(text) == "string" and text) or
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
local next, rawset = next, rawset
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

-- Which of its tests each block still has to run here (from plan): its
-- after_all hooks run after the last.
local remaining = {}

local function plan(indices)
  remaining = {}
  for _, index in ipairs(indices) do
    local test = tests[index]
    if test and not test.pending then                           -- a pending test never runs
      for _, block in ipairs(test.blocks) do remaining[block] = (remaining[block] or 0) + 1 end
    end
  end
end

-- A failure in a later phase (finally, after_each, after_all) when the test
-- failed already: added to the first, never lost.
-- The hook running now ({ name = "after_all", where = "file:line" }), for
-- the runner: a hook stopped by the time limit, stuck in C or killing its
-- worker is named as such, not as the test it ran after. `report` (set by a
-- worker) tells the runner as each hook starts.
local status = { phase = nil, report = nil }
local function hook_call(name, fn, ...)
  local info = getinfo(fn, "S")
  local where = info and (info.short_src .. ":" .. info.linedefined) or "?"
  status.phase = { name = name, where = where }
  if status.report then status.report(name, where) end
  local ok, err = xpcall(fn, on_error, ...)
  status.phase = nil
  if status.report then status.report("", "") end
  return ok, err
end

local function add_failure(failure, err, phase)
  if not failure then
    err.phase = phase
    return err
  end
  failure.message = tostring(failure.message) .. "\n(and in " .. phase .. ": " .. tostring(err.message) .. ")"
  return failure
end

-- A test's blocks, innermost first, once it ran (or will not run): each
-- counts the test as done, and a block's after_all hooks run after its last
-- test here. Marked in `done` as they go (see finish_test).
local function leave_blocks(test, done, failure)
  for i = #test.blocks, 1, -1 do
    local block = test.blocks[i]
    local id = "counted " .. i
    if not done[id] then
      done[id] = true
      local left = remaining[block]
      if left then
        remaining[block] = left - 1
        if left == 1 and block.set_up and not block.setup_failure then block.tear_down = true end
      end
    end
    if block.tear_down then
      local hooks = block.after_all
      for j = #hooks, 1, -1 do
        local hook_id = "after_all " .. i .. " " .. j
        if not done[hook_id] then
          done[hook_id] = true
          in_all = true
          local ok, err = hook_call("after_all", hooks[j])
          in_all = false
          if not ok then failure = add_failure(failure, err, "after_all") end
        end
      end
      block.tear_down = nil
    end
  end
  return failure
end

-- The end of a test, whether it ran to its end or was stopped (its time
-- limit, here or in a hook): cleanups, after_each hooks (of the blocks it
-- entered), spies put back, after_all for blocks it was the last of, state
-- restored. Each hook is marked before it runs, so a finish that was itself
-- stopped goes on after the one that hung.
local function finish_test(test, container, started, failure)
  in_cleanup = true
  test.done = test.done or {}
  local done = test.done
  if unfinished_override then
    local text = "override " .. unfinished_override .. " was given no body: write override \"…\" { make = function() … end }"
    if failure then failure.message = tostring(failure.message) .. "\n(and " .. text .. ")" else failure = { message = text } end
    unfinished_override = nil
  end
  local cleanups = test.finally
  if cleanups then
    while #cleanups > 0 do                                       -- a cleanup may add cleanups
      local cleanup = cleanups[#cleanups]
      cleanups[#cleanups] = nil
      local ok, err = hook_call("finally", cleanup)
      if not ok then failure = add_failure(failure, err, "finally") end
    end
  end
  test.finally = nil
  for i = started, 1, -1 do
    local hooks = test.blocks[i].after
    for j = #hooks, 1, -1 do
      local id = "after_each " .. i .. " " .. j
      if not done[id] then
        done[id] = true
        local ok, err = hook_call("after_each", hooks[j], container or no_container)
        if not ok then failure = add_failure(failure, err, "after_each") end
      end
    end
  end
  for i = #installed, 1, -1 do                                   -- spy.on in this test: put back, newest first
    local record = spies[installed[i]]
    if record and record.revert then record.revert(); record.revert = nil end
  end
  installed = {}
  failure = leave_blocks(test, done, failure)
  if sticky and (not failure or getmetatable(failure) == Failure) then
    -- The swallowed failure came first: it is the cause; a later expectation
    -- failing on what the code then returned is its consequence, named after it.
    local later = failure
    failure = sticky
    failure.message = tostring(failure.message) .. " (" .. (failure.swallowed_in or "inside a stub's method")
      .. "; the code that called it caught the error)"
    if later and later ~= sticky then
      local text = tostring(later.message)
      if #text > 300 then text = sub(text, 1, 300) .. "…" end
      failure.message = failure.message .. "; then, at " .. tostring(later.where) .. ": " .. text
    end
  end
  sticky, in_stub = nil, 0
  running, test_container, in_all, in_cleanup = nil, nil, false, false
  test.done = nil
  restore_interpreter()
  restore_baseline()
  return failure
end

-- After the test's container closed (its closes may call spies): the next
-- test starts with no calls recorded.
local function clear_records()
  for _, record in pairs(spies) do record.calls = {} end
end

-- Which blocks each test entered, for finish_test after a stop.
local entered = {}

local function run(index, container)
  status.phase = nil                     -- (a hook stopped by the time limit never cleared it)
  if not baseline then record_baseline() end
  test_depth = swift_depth and swift_depth() or 0
  local test = tests[index]
  local failure
  local started = 0
  running = test
  test_container = container
  local given = container or no_container
  test.finally = {}
  entered[index] = 0
  -- before_all, once per block, before its first test here; a failure
  -- there (or a stop: the limit) fails each of the block's tests, and the
  -- blocks inside it are not set up.
  for _, block in ipairs(test.blocks) do
    if block.setup_failure then
      if not failure then
        local f = block.setup_failure
        failure = { message = f.message, where = f.where, expected = f.expected, actual = f.actual,
                    traceback = f.traceback, phase = "before_all" }
        if getmetatable(f) == Failure then setmetatable(failure, Failure) end
      end
    elseif not failure and not block.set_up then
      block.set_up = true
      block.setup_failure = { message = "before_all did not finish (stopped by the time limit)" }
      for _, hook in ipairs(block.before_all) do
        in_all = true
        local ok, err = hook_call("before_all", hook)
        in_all = false
        if not ok then
          err.phase = "before_all"
          block.setup_failure = err
          break
        end
      end
      if block.setup_failure and block.setup_failure.phase ~= "before_all" then block.setup_failure = nil end
      if block.setup_failure then
        local f = block.setup_failure
        failure = { message = f.message, where = f.where, expected = f.expected, actual = f.actual,
                    traceback = f.traceback, phase = "before_all" }
        if getmetatable(f) == Failure then setmetatable(failure, Failure) end
      end
    end
  end
  if not failure then
    for _, block in ipairs(test.blocks) do
      started = started + 1                                      -- entered: its after_each runs, even if a before_each is stopped
      entered[index] = started
      for _, hook in ipairs(block.before) do
        if failure then break end
        in_before_each = true
        local ok, err = hook_call("before_each", hook, given)
        in_before_each = false
        if not ok then failure = err; failure.phase = "before_each" end
      end
      if failure then break end
    end
  end
  if not failure then
    local ok, err = xpcall(test.fn, on_error, given)
    if not ok then failure = err end
  end
  failure = finish_test(test, container, started, failure)
  entered[index] = nil
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

-- After a test was stopped (its time limit): what run would have done
-- after it, under a fresh limit. Returns a cleanup's failure, if any.
local function abandon(index)
  local test = tests[index]
  if not test then return nil end
  in_all, in_cleanup = false, false
  local started = entered[index] or 0
  local failure = finish_test(test, test_container, started, nil)
  entered[index] = nil
  misused, exit_called = nil, nil
  return failure and tostring(failure.message) or nil
end

-- A test that will not run after all (pending, or its container could not
-- be made): its blocks' after_all still run after their last test.
local function passed_over(index)
  local test = tests[index]
  if not test then return end
  local failure = leave_blocks(test, {}, nil)
  exit_called = nil
  return failure and tostring(failure.message) or nil
end

local function list()
  if exit_called then error(exit_called, 0) end    -- the file's top level called os.exit (and swallowed the error)
  local out = {}
  for i, test in ipairs(tests) do
    out[i] = { name = test.name, path = test.path, file = test.file, line = test.line, tags = test.tags,
               config = test.config, config_at = test.config_at, timeout = test.timeout, pending = test.pending }
  end
  return out
end

local function matches(text, pattern, plain) return find(text, pattern, 1, plain) ~= nil end

-- Whether test `index`'s whole name (not the one reports show, cut to ~256
-- bytes a part) holds one of `texts` or matches one of `patterns` (each a
-- list). Made only while it is asked: a 4 MB name is held once, as given.
local function selects(index, texts, patterns)
  local test = tests[index]
  if test == nil then return false end
  local name = concat(test.full_path, " > ")
  for _, text in ipairs(texts) do
    if find(name, text, 1, true) then return true end
  end
  for _, pattern in ipairs(patterns) do
    if find(name, pattern) then return true end
  end
  return false
end

-- os.exit called by a finalizer the collection after a test ran (Swift
-- collects once the test's container is dropped): that test's doing.
local function late_exit()
  local text = exit_called
  exit_called = nil
  return text
end

return { tests = list, plan = plan, run = run, abandon = abandon, passed_over = passed_over, clear_records = clear_records,
         matches = matches, selects = selects,
         pretty = pretty, late_exit = late_exit, status = status }
