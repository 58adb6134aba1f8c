-- The Lua half of the REPL (embedded in the binary at build time): the
-- environment prompt lines run in (so `local x` at the prompt stays
-- visible), the pretty printer, and completion. The chunk gets Swift's
-- `describe(value)` (a Swift object's type, registration and properties, or
-- nil) and `members(value)` (a Swift object's exported members), and returns
-- a table of functions for Swift.
local describe, members = ...
local type, next, tostring, format, concat, sort =
  type, next, tostring, string.format, table.concat, table.sort
local rawget, rawlen, select, mathtype, pcall = rawget, rawlen, select, math.type, pcall
local load, setmetatable = load, setmetatable
-- Metatables as they are (a __metatable field must not hide a __tostring);
-- the sandbox has no debug library, and then getmetatable it is.
local getmetatable = debug and debug.getmetatable or getmetatable
local G = _G

-- Locals declared at the prompt: a table consulted before the globals. Each
-- line is compiled with `env` as its _ENV, and a line's top-level `local`
-- names are copied here when it ends (see keep).
local locals, declared = {}, {}
-- The name the end of a line calls to hand its locals over (not `...`,
-- which stays the line's own, empty as in lua.c).
local keep_name = format("__factoryhost_keep_%d", math.random(1, 1 << 30))
local keep
local env = setmetatable({}, {
  __index = function(_, key)
    if declared[key] then return locals[key] end
    if key == keep_name then return keep end
    return G[key]
  end,
  __newindex = function(_, key, value)
    if declared[key] then locals[key] = value else G[key] = value end
  end,
  __pairs = function()
    -- the globals, then the prompt's locals (which hide globals of the same name)
    local merged = {}
    for key, value in next, G do merged[key] = value end
    for key in next, declared do merged[key] = locals[key] end
    return next, merged, nil
  end,
  -- The prompt's environment is the REPL's: a script cannot take it apart
  -- (setmetatable(_ENV, …) says so; change _G's metatable instead).
  __metatable = "the prompt's environment (its globals are _G's)",
})

keep = function(...)
  for i = 1, select("#", ...), 2 do
    local name, value = select(i, ...)
    declared[name] = true
    locals[name] = value
  end
end

-- Pretty-printing ---------------------------------------------------------

local function is_identifier(s)
  return type(s) == "string" and s:find("^[%a_][%w_]*$") ~= nil and not ({
    ["and"]=1, ["break"]=1, ["do"]=1, ["else"]=1, ["elseif"]=1, ["end"]=1, ["false"]=1, ["for"]=1,
    ["function"]=1, ["goto"]=1, ["if"]=1, ["in"]=1, ["local"]=1, ["nil"]=1, ["not"]=1, ["or"]=1,
    ["repeat"]=1, ["return"]=1, ["then"]=1, ["true"]=1, ["until"]=1, ["while"]=1 })[s]
end

local function key_order(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then
    if ta == "number" then return true end
    if tb == "number" then return false end
    return ta < tb
  end
  if ta == "number" or ta == "string" then return a < b end
  if ta == "boolean" then return not a and b end
  return format("%p", a) < format("%p", b)      -- an address: no __tostring runs, and the order is strict
end

local MAX_DEPTH, MAX_ITEMS, WIDTH = 4, 100, 72
local show_origins = true

local function quote(s)
  return (format("%q", s):gsub("\\\n", "\\n"))
end

local pretty

local function scalar(value)
  local kind = type(value)
  if kind == "string" then return quote(value) end
  if kind == "number" then
    if mathtype(value) == "float" and value == value and value ~= 1/0 and value ~= -1/0
       and value == math.floor(value) and value > -1e15 and value < 1e15 then
      return format("%.1f", value)
    end
    return tostring(value)
  end
  return nil
end

-- A Swift object: `Type { prop = …, … }` with where it came from.
local function object(value, depth, seen, indent)
  local info = describe(value)
  if not info then return tostring(value) end
  local parts = {}
  for _, name in ipairs(info.properties or {}) do
    local ok, item = pcall(function() return value[name] end)
    local shown
    if not ok then shown = "<error: " .. tostring(item):gsub("^[^:]*:%d+: ", "") .. ">"
    elseif depth + 1 >= MAX_DEPTH and (type(item) == "table" or type(item) == "userdata") then shown = "…"
    else shown = pretty(item, depth + 1, seen, indent .. "  ") end
    parts[#parts + 1] = name .. " = " .. shown
  end
  local head, tail = info.type, (show_origins and info.origin) and ("  -- " .. info.origin) or ""
  if #parts == 0 then return head .. tail end
  local one = head .. " { " .. concat(parts, ", ") .. " }"
  if #one + #indent <= WIDTH and not one:find("\n") then return one .. (depth == 0 and tail or "") end
  return head .. " {" .. (depth == 0 and tail or "") .. "\n" .. indent .. "  "
    .. concat(parts, ",\n" .. indent .. "  ") .. "\n" .. indent .. "}"
end

pretty = function(value, depth, seen, indent)
  depth, seen, indent = depth or 0, seen or {}, indent or ""
  local simple = scalar(value)
  if simple then return simple end
  local kind = type(value)
  if kind == "userdata" then
    if seen[value] then return "<cycle>" end
    seen[value] = true
    local text = object(value, depth, seen, indent)
    seen[value] = nil
    return text
  end
  if kind ~= "table" then return tostring(value) end
  local mt = getmetatable(value)
  if type(mt) == "table" and rawget(mt, "__tostring") then return tostring(value) end
  if seen[value] then return "<cycle>" end
  if depth >= MAX_DEPTH then return "{…}" end
  seen[value] = true
  -- The table as it is: raw length, raw reads (no __len or __index runs).
  local parts, count = {}, rawlen(value)
  local shown = 0
  for i = 1, count do
    shown = shown + 1
    if shown > MAX_ITEMS then break end
    parts[#parts + 1] = pretty(rawget(value, i), depth + 1, seen, indent .. "  ")
  end
  local keys = {}
  for key in next, value do
    if not (mathtype(key) == "integer" and key >= 1 and key <= count) then keys[#keys + 1] = key end
  end
  sort(keys, key_order)
  for _, key in ipairs(keys) do
    shown = shown + 1
    if shown > MAX_ITEMS then break end
    local label = is_identifier(key) and key or ("[" .. pretty(key, depth + 1, seen, indent .. "  ") .. "]")
    parts[#parts + 1] = label .. " = " .. pretty(rawget(value, key), depth + 1, seen, indent .. "  ")
  end
  local total = count + #keys
  if total > MAX_ITEMS then parts[#parts + 1] = format("… (%d more)", total - MAX_ITEMS) end
  seen[value] = nil
  if #parts == 0 then return "{}" end
  local one = "{ " .. concat(parts, ", ") .. " }"
  if #one + #indent <= WIDTH and not one:find("\n") then return one end
  return "{\n" .. indent .. "  " .. concat(parts, ",\n" .. indent .. "  ") .. "\n" .. indent .. "}"
end

-- A value that cannot be pretty-printed (its __tostring fails, say): its
-- type and address, and why.
local function fallback(value, problem)
  local text = type(problem) == "string" and problem or "an error"
  text = text:gsub("^%[factoryhost repl%]:%d+: ", "")
  return format("<%s: %p (cannot be shown: %s)>", type(value), value, text)
end

-- Every value of a call's results, pretty, separated by tabs (as print does).
local function show(...)
  local out = {}
  for i = 1, select("#", ...) do
    local value = (select(i, ...))
    local ok, text = pcall(pretty, value)
    out[i] = ok and text or fallback(value, text)
  end
  return concat(out, "\t")
end

-- Completion ----------------------------------------------------------------

local keywords = { "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto",
                   "if", "in", "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while" }

-- The value a dotted path (`a.b.c`) names, looked up without calling anything
-- but plain table reads (rawget, and __index when it is a table).
local function lookup(path)
  local value = env
  for part in path:gmatch("[^.:]+") do
    if type(value) == "table" then
      local found = rawget(value, part)
      if found == nil and value == env then
        if declared[part] then found = locals[part] else found = rawget(G, part) end     -- no _G metamethod runs
      end
      if found == nil then
        local mt = getmetatable(value)
        local index = type(mt) == "table" and rawget(mt, "__index")
        if type(index) == "table" then found = rawget(index, part) end
      end
      value = found
    elseif type(value) == "userdata" then
      local names = members(value)
      if not names then return nil end
      local ok, found = pcall(function() return value[part] end)
      if not ok then return nil end
      value = found
    else
      return nil
    end
    if value == nil then return nil end
  end
  return value
end

-- The names a value offers after `.` (fields) or `:` (methods).
local function names_of(value, methods_only)
  local names, seen = {}, {}
  local function add(name, item)
    if type(name) == "string" and is_identifier(name) and not seen[name]
       and (not methods_only or type(item) == "function") then
      seen[name] = true
      names[#names + 1] = name
    end
  end
  if type(value) == "table" then
    local t, hops = value, 0
    while type(t) == "table" and hops < 8 do
      for key, item in next, t do add(key, item) end
      local mt = getmetatable(t)
      t = type(mt) == "table" and rawget(mt, "__index") or nil
      hops = hops + 1
    end
  elseif type(value) == "userdata" then
    for _, entry in ipairs(members(value) or {}) do
      if not methods_only or entry.kind == "method" then
        if not seen[entry.name] then seen[entry.name] = true; names[#names + 1] = entry.name end
      end
    end
  elseif type(value) == "string" then
    for key, item in next, string do add(key, item) end
  end
  return names
end

-- Candidates completing the word that ends `text` (the line up to the cursor),
-- with `keys()` and `configurations()` from Swift. Returns the candidates
-- (whole words) and how many characters of `text` they replace.
local function complete(text, keys, configurations, commands)
  local candidates, word = {}
  local function from(list, prefix)
    for _, item in ipairs(list) do
      if item:sub(1, #prefix) == prefix then candidates[#candidates + 1] = item end
    end
  end
  -- `:command` and its argument
  local command, argument = text:match("^%s*:(%a*)%s+(%S*)$")
  if command then
    word = argument
    if command == "use" or command == "regs" or command == "configs" then from(configurations(), word)
    elseif command == "graph" or command == "inspect" then from(keys(), word) end
  elseif text:match("^%s*:%a*$") then
    word = text:match(":(%a*)$")
    from(commands, word)
    word = ":" .. word
    for i, c in ipairs(candidates) do candidates[i] = ":" .. c .. " " end   -- a command is followed by its argument
  else
    -- a string argument: resolve "Key / container "name
    local callee, quoted = text:match("([%w_]+)%s*%(?%s*[\"']([^\"']*)$")
    if callee then
      word = quoted
      if callee == "container" then from(configurations(), word)
      elseif callee == "resolve" or callee == "provider" or callee == "inject" then from(keys(), word) end
    else
      local path, sep, partial = text:match("([%a_][%w_%.:]*)([%.:])([%a_]?[%w_]*)$")
      if path and not path:find("[.:]$") then
        word = partial
        local value = lookup(path)
        if value ~= nil then from(names_of(value, sep == ":"), word) end
      else
        word = text:match("[%a_][%w_]*$") or ""
        if word ~= "" then
          local all = names_of(G, false)
          for key in next, declared do all[#all + 1] = key end
          for _, keyword in ipairs(keywords) do all[#all + 1] = keyword end
          from(all, word)
        end
      end
    end
  end
  sort(candidates)
  local unique, last = {}, nil
  for _, c in ipairs(candidates) do if c ~= last then unique[#unique + 1] = c; last = c end end
  return unique, #word
end

-- A prompt chunk compiled in the REPL's environment.
local function compile(code, name)
  return load(code, name or "=stdin", "t", env)
end

-- The prompt: _PROMPT / _PROMPT2 if set (as lua.c honours them); one whose
-- __tostring fails gives the stock prompt.
local function prompt(continuation)
  local value = rawget(G, continuation and "_PROMPT2" or "_PROMPT")
  if value == nil then return continuation and ">> " or "> " end
  local ok, text = pcall(tostring, value)
  if ok and type(text) == "string" then return text end
  return continuation and ">> " or "> "
end

-- One line (a table or object that needs more shows as its type and `{…}`), no origin.
local function compact(value)
  show_origins = false
  local ok, text = pcall(pretty, value)
  show_origins = true
  if not ok then return tostring(value) end
  if text:find("\n") then
    local info = type(value) == "userdata" and describe(value)
    return (info and info.type or type(value)) .. " {…}"
  end
  return text
end

return {
  env = env,
  keep_name = keep_name,
  compile = compile,
  compact = compact,
  prompt = prompt,
  keep = keep,
  pretty = function(value) return pretty(value) end,
  show = show,
  complete = complete,
  reset = function() locals, declared = {}, {} end,
}
