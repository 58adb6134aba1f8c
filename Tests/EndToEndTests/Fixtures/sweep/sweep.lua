-- The hostile-input sweep over every exported member of the shipped plugins
-- (run by HostileInputSweepTests, in a child process: a trap kills it).
--
-- arg[1] is a file that returns the classes to sweep:
--   { { module = "networking", name = "Cache", new = true, functions = {…},
--       methods = {…}, properties = {…}, settable = {…} }, … }
--
-- For each callable it first finds arguments that work, guided by the
-- bridge's own messages ("bad argument #2 to 'X' (Cache expected, got nil)",
-- "bad argument 'path' to …"), then puts each hostile value in each position
-- (and named field) in turn. Every call is protected: errors are expected;
-- the process must survive them all. It prints one summary line.
local classes = dofile(arg[1])

local cycle = {} cycle.self = cycle cycle[1] = cycle
local hostile = {
  0/0, math.huge, -math.huge, 1e300, -1e300, -1, 0, math.maxinteger, math.mininteger, 2^63, -2^63, 1e19, 0.5,
  "", string.rep("x", 1 << 20), "\0", "\255\254", "nan", "inf", "-1", "1e300", "/dev/zero", "../../../etc/passwd",
  {}, cycle, { 0/0 }, { math.huge }, { string.rep("y", 1 << 16) }, setmetatable({}, { __index = function() error("no") end }),
  true, false, print, coroutine.create(function() end),
}

local pool = {}          -- instances by class name
local function remember(v)
  if type(v) == "userdata" then
    local name = tostring(v):match("^(%w+)")
    for _, c in ipairs(classes) do
      if c.name == name then pool[name] = pool[name] or {} ; if #pool[name] < 3 then table.insert(pool[name], v) end end
    end
  end
end

local plausible = {
  integer = 1, number = 2.5, string = "Users", boolean = true, ["function"] = function() return nil end,
  table = {}, value = 1, ["array of string"] = { "Users" }, ["array of integer"] = { 1 },
}

-- Values some named fields need to work (a fake session, a file here).
local fields = { baseURL = "fixture://movies.example", path = "sweep-store.db", service = "sweep", migrateAutomatically = true }

-- A stand-in for any interface a script can implement: every method exists.
local anything = setmetatable({}, { __index = function() return function() return nil end end })

local candidate
function candidate(expected, field)
  expected = expected:gsub(" or nil$", "")
  if field and fields[field] then return fields[field] end
  if plausible[expected] ~= nil then return plausible[expected] end
  local first = expected:match("^one of ([^,]+),")                -- a value from a fixed set
  if first then return first end
  if pool[expected] and pool[expected][1] ~= nil then return pool[expected][1] end
  if expected:match("^function") then                            -- a provider or a typed closure
    local made = expected:match('provider "(%w+)"') or expected:match("%-> (%w+)")
    return function() return made and pool[made] and pool[made][1] or nil end
  end
  local element = expected:match("^array of (%w+)")
  if element then
    local one = candidate(element)
    return { one }
  end
  if expected:match("^table") then return {} end
  if expected:match("^%u%w*$") then                            -- an interface (or a class not made yet)
    local ok, shape = pcall(describe, expected)
    if ok and shape.kind == "interface" and shape.properties then
      -- Its properties must hold values of their types: made from the pool.
      local implementation = setmetatable({}, getmetatable(anything))
      for name, property in pairs(shape.properties) do
        local value = candidate(property.type)
        if value == nil or value == anything then return nil end
        implementation[name] = value
      end
      return implementation
    end
    return anything
  end
  return nil
end

local calls, survived = 0, 0
local function try(f, args, n)
  calls = calls + 1
  local results = table.pack(pcall(f, table.unpack(args, 1, n)))
  if results[1] then for i = 2, results.n do remember(results[i]) end end
  return results[1], results[2]
end

-- Finds arguments `f` accepts (up to 16 guided attempts); `offset` is 1
-- for methods (argument #1 is the receiver).
local function guided(f, prefix, offset)
  local args, n, named = {}, #prefix, nil
  for i, v in ipairs(prefix) do args[i] = v end
  for _ = 1, 16 do
    local ok, err = try(f, args, math.max(n, #prefix))
    if ok then return args, math.max(n, #prefix), named end
    err = tostring(err)
    local pos, expected = err:match("bad argument #(%d+) to '[^']+' %((.-) expected")
    local field, fexpected = err:match("bad argument '([%w_]+)' to '[^']+' %((.-) expected")
    if pos then
      pos = tonumber(pos)
      local value = candidate(expected)
      if value == nil or pos > 8 then return nil end
      if expected:match("^table") and args[pos] == nil then
        named = {}
        for k, v in pairs(fields) do named[k] = v end
        value = named
      end
      args[pos] = value
      n = math.max(n, pos)
    elseif field then
      named = named or {}
      local value = candidate(fexpected, field)
      if value == nil then return nil end
      named[field] = value
      if args[1 + offset] ~= named then args[1 + offset] = named n = math.max(n, 1 + offset) end
    else
      local unknown = err:match('has no option "([%w_]+)"') or err:match('has no argument named "([%w_]+)"')
      local wanted = err:match("(%u%w*) expected, got")
      local stand_in
      for i = n, 1, -1 do
        if type(args[i]) == "table" and wanted and pool[wanted] and args[i] ~= pool[wanted][1] then stand_in = i end
      end
      if unknown and named then
        named[unknown] = nil
      elseif stand_in then                                       -- a stand-in where a class was wanted
        args[stand_in] = pool[wanted][1]
      elseif args[1 + offset] == nil then                        -- perhaps options it did not name
        named = {}
        for k, v in pairs(fields) do named[k] = v end
        args[1 + offset] = named
        n = math.max(n, 1 + offset)
      else
        if os.getenv("SWEEP_DEBUG") then io.stderr:write("gave up: ", err, "\n") end
        return nil
      end
    end
  end
  return nil
end

local function sweep(f, prefix, offset)
  local good, n, named = guided(f, prefix, offset)
  -- hostile values in every position, from a working call when there is one
  local base = good or prefix
  local width = math.max(good and n or 0, offset + 3)
  for pos = offset + 1, width do
    for _, h in ipairs(hostile) do
      local args = {}
      for i = 1, width do args[i] = base[i] end
      args[pos] = h
      try(f, args, width)
    end
  end
  if named then
    for field in pairs(named) do
      for _, h in ipairs(hostile) do
        local copy = {}
        for k, v in pairs(named) do copy[k] = v end
        copy[field] = h
        local args = {}
        for i = 1, n do args[i] = base[i] == named and copy or base[i] end
        try(f, args, n)
      end
    end
  end
  survived = survived + 1
end

local swept = {}
for round = 1, 6 do
  for _, c in ipairs(classes) do
    local class = require("factoryhost." .. c.module)[c.name]
    if class and round == 1 then
      if c.new then sweep(class.new, {}, 0) end
      for _, name in ipairs(c.functions) do sweep(class[name], {}, 0) end
    elseif class and not pool[c.name] then           -- its arguments may exist now
      if c.new then guided(class.new, {}, 0) end
      for _, name in ipairs(c.functions) do guided(class[name], {}, 0) end
    end
    for _, object in ipairs(pool[c.name] or {}) do
      if not swept[object] then
        swept[object] = true
        for _, name in ipairs(c.methods) do
          sweep(function(...) return object[name](...) end, { object }, 1)
        end
        for _, name in ipairs(c.properties) do try(function() return object[name] end, {}, 0) end
        for _, name in ipairs(c.settable) do
          for _, h in ipairs(hostile) do try(function() object[name] = h end, {}, 0) end
        end
      end
    end
  end
end

local missing = {}
for _, c in ipairs(classes) do
  if not pool[c.name] and (#c.methods > 0 or #c.properties > 0) then missing[#missing + 1] = c.name end
end
table.sort(missing)
print(string.format("swept %d callables with %d calls; classes without an instance: %s",
                    survived, calls, #missing == 0 and "none" or table.concat(missing, ", ")))
