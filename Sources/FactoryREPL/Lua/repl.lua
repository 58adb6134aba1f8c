-- The Lua half of the REPL (embedded in the binary at build time): the
-- environment prompt lines run in (so `local x` at the prompt stays
-- visible), and the way to the pretty printer and completion, which are
-- compiled when first used (`repl_printer.lua`, `repl_completion.lua`:
-- compiling them made half of the REPL's start). The chunk gets Swift's
-- `describe(value)` (a Swift object's type, registration and properties, or
-- nil), `members(value)` (a Swift object's exported members) and
-- `part(name)` (the named part's chunk), and returns a table of functions
-- for Swift.
local describe, members, part = ...
local type, next, tostring, format, select = type, next, tostring, string.format, select
local rawget, pcall, load, setmetatable = rawget, pcall, load, setmetatable
local G = _G

-- Locals declared at the prompt: a table consulted before the globals. Each
-- line is compiled with `env` as its _ENV, and a line's top-level `local`
-- names are copied here when it ends (see keep). (In a table, so that the
-- parts see what `reset` puts in their place.)
local prompt_locals = { values = {}, declared = {} }
-- The name the end of a line calls to hand its locals over (not `...`,
-- which stays the line's own, empty as in lua.c).
local keep_name = format("__factoryhost_keep_%d", math.random(1, 1 << 30))
local keep
local env = setmetatable({}, {
  __index = function(_, key)
    if prompt_locals.declared[key] then return prompt_locals.values[key] end
    if key == keep_name then return keep end
    return G[key]
  end,
  __newindex = function(_, key, value)
    if prompt_locals.declared[key] then prompt_locals.values[key] = value else G[key] = value end
  end,
  __pairs = function()
    -- the globals, then the prompt's locals (which hide globals of the same name)
    local merged = {}
    for key, value in next, G do merged[key] = value end
    for key in next, prompt_locals.declared do merged[key] = prompt_locals.values[key] end
    return next, merged, nil
  end,
  -- The prompt's environment is the REPL's: a script cannot take it apart
  -- (setmetatable(_ENV, …) says so; change _G's metatable instead).
  __metatable = "the prompt's environment (its globals are _G's)",
})

keep = function(...)
  for i = 1, select("#", ...), 2 do
    local name, value = select(i, ...)
    prompt_locals.declared[name] = true
    prompt_locals.values[name] = value
  end
end

local function is_identifier(s)
  return type(s) == "string" and s:find("^[%a_][%w_]*$") ~= nil and not ({
    ["and"]=1, ["break"]=1, ["do"]=1, ["else"]=1, ["elseif"]=1, ["end"]=1, ["false"]=1, ["for"]=1,
    ["function"]=1, ["goto"]=1, ["if"]=1, ["in"]=1, ["local"]=1, ["nil"]=1, ["not"]=1, ["or"]=1,
    ["repeat"]=1, ["return"]=1, ["then"]=1, ["true"]=1, ["until"]=1, ["while"]=1 })[s]
end

-- The parts, compiled on first use with what they share.
-- (The standard functions are taken now, as the REPL starts: a prompt line
-- that replaces a global before a part is first used does not change it.)
local shared = {
  describe = describe, members = members, env = env, G = G, prompt_locals = prompt_locals,
  is_identifier = is_identifier,
  -- Metatables as they are (a __metatable field must not hide a __tostring);
  -- the sandbox has no debug library, and then getmetatable it is.
  getmetatable = debug and debug.getmetatable or getmetatable,
  type = type, next = next, tostring = tostring, format = format, concat = table.concat, sort = table.sort,
  rawget = rawget, rawlen = rawlen, select = select, mathtype = math.type, pcall = pcall,
  utf8len = utf8.len, byte = string.byte, sub = string.sub,
}
local parts = {}
local function use(name)
  local loaded = parts[name]
  if not loaded then
    loaded = part(name)(shared)
    parts[name] = loaded
  end
  return loaded
end

-- What `:reload` compares of a make function or a parameter's value between
-- two runs of the script: a Lua function's code without its lines or names
-- (moving a function is no change) and the values it closes over (a local it
-- reads changed: `local url = "…"`); a C function by the name it has in the
-- standard library (a C closure cannot be compared: it is taken as the same);
-- a table's contents, sorted (to a depth, and to a number of entries); a
-- scalar as it is. Userdata and threads differ from run to run by nature:
-- their type only. nil: cannot be compared.
local dump, getupvalue = string.dump, debug and debug.getupvalue
local builtin_names
local function builtin_name(f)
  if not builtin_names then
    builtin_names = {}
    for name, value in next, G do
      if type(value) == "function" then builtin_names[value] = name
      elseif type(value) == "table" and name ~= "_G" and name ~= "package" then
        for field, member in next, value do
          if type(member) == "function" then builtin_names[member] = name .. "." .. tostring(field) end
        end
      end
    end
  end
  return builtin_names[f]
end
local MAX_DEPTH, MAX_ENTRIES = 6, 10000
local function fingerprint(value, depth, seen)
  depth, seen = depth or 0, seen or {}
  local kind = type(value)
  if kind == "function" then
    if seen[value] then return "<cycle>" end
    local ok, code = false, nil
    if dump then ok, code = pcall(dump, value, true) end
    if not ok then return "C function " .. (builtin_name(value) or "(closure)") end
    if depth >= MAX_DEPTH or not getupvalue then return "function " .. code end
    seen[value] = true
    local pieces = { "function ", code }
    for i = 1, 255 do
      local name, upvalue = getupvalue(value, i)
      if name == nil then break end
      if name ~= "_ENV" then pieces[#pieces + 1] = "\0" .. name .. "=" .. (fingerprint(upvalue, depth + 1, seen) or "?") end
    end
    seen[value] = nil
    return table.concat(pieces)
  elseif kind == "table" then
    if seen[value] then return "<cycle>" end
    if depth >= MAX_DEPTH then return "{…}" end
    seen[value] = true
    local items, count = {}, 0
    for key, item in next, value do
      count = count + 1
      if count > MAX_ENTRIES then items[#items + 1] = "…"; break end
      items[#items + 1] = (fingerprint(key, depth + 1, seen) or "?") .. "=" .. (fingerprint(item, depth + 1, seen) or "?")
    end
    seen[value] = nil
    table.sort(items)
    return "{" .. table.concat(items, ",") .. "}"
  elseif kind == "string" then
    return format("%q", value)
  elseif kind == "userdata" or kind == "thread" then
    return kind
  end
  return tostring(value)
end
-- A prompt chunk compiled in the REPL's environment. The parser can raise
-- rather than return its error (nesting too deep: "C stack overflow"): that
-- is the line's error too, without the REPL's own frames.
local function compile(code, name)
  local ok, chunk, err = pcall(load, code, name or "=stdin", "t", env)
  if not ok then return nil, tostring(chunk) end
  return chunk, err
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

return {
  env = env,
  keep_name = keep_name,
  compile = compile,
  compact = function(value) return use("printer").compact(value) end,
  prompt = prompt,
  keep = keep,
  pretty = function(value) return use("printer").pretty(value) end,
  show = function(...) return use("printer").show(...) end,
  complete = function(...) return use("completion").complete(...) end,
  reset = function() prompt_locals.values, prompt_locals.declared = {}, {} end,
  fingerprint = fingerprint,
  -- Tables Lua factories built at the prompt, each to the number Swift keeps
  -- its registration under (weak keys: a collected table is forgotten).
  built = setmetatable({}, { __mode = "k" }),
}
