-- The REPL's completion, compiled when first used (see repl.lua, which
-- passes what the parts share).
local shared = ...
local members, env, G, prompt_locals = shared.members, shared.env, shared.G, shared.prompt_locals
local is_identifier, getmetatable = shared.is_identifier, shared.getmetatable
local type, next, sort, rawget, pcall = shared.type, shared.next, shared.sort, shared.rawget, shared.pcall

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
        if prompt_locals.declared[part] then found = prompt_locals.values[part] else found = rawget(G, part) end     -- no _G metamethod runs
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

-- A command's arguments as typed so far: how many words are complete, and
-- the last one's text (without its opening quote) and its quote, if open.
-- Words split at spaces and tabs; "…" or '…' is one word (as the commands read them).
local function argument_words(text)
  local done, word, quote, in_word = 0, "", nil, false
  for character in text:gmatch(".") do
    if quote then
      if character == quote then quote = nil else word = word .. character end
    elseif character == '"' or character == "'" then
      quote, in_word = character, true
    elseif character == " " or character == "\t" then
      if in_word then done, word, in_word = done + 1, "", false end
    else
      word, in_word = word .. character, true
    end
  end
  return done, word, quote
end

-- Which list completes argument `index` of `:command` ("expression": a Lua expression).
local function argument_kind(command, index)
  if command == "use" or command == "configs" then return index == 0 and "configuration" end
  if command == "regs" then return index == 0 and "configuration" end
  if command == "graph" then return (index == 0 and "key") or (index == 1 and "configuration") end
  if command == "help" then return index == 0 and "command" end
  if command == "inspect" or command == "live" or command == "time" then return "expression" end
end

-- Candidates completing the word that ends `text` (the line up to the cursor),
-- with `keys()` and `configurations()` from Swift. Returns the candidates
-- (whole words) and how many characters of `text` they replace.
local complete
function complete(text, keys, configurations, commands)
  local candidates, word = {}
  local function from(list, prefix)
    for _, item in ipairs(list) do
      if item:sub(1, #prefix) == prefix then candidates[#candidates + 1] = item end
    end
  end
  -- `:command` and its arguments
  local command, arguments = text:match("^%s*:(%a*)[ \t]+(.*)$")
  if command then
    local index, partial, quote = argument_words(arguments)
    local kind = argument_kind(command, index)
    if kind == "expression" then
      return complete(arguments, keys, configurations, commands)
    end
    word = partial
    if kind == "configuration" then from(configurations(), word)
    elseif kind == "key" then from(keys(), word)
    elseif kind == "command" then from(commands, word) end
    -- A name with a space or a quote in it completes quoted, as the command reads it:
    -- inside an open quote, with the quote closed; else within quotes of its own.
    for i, item in ipairs(candidates) do
      if quote then
        candidates[i] = item .. quote
      elseif item:find("[ \t\"']") then
        local q = item:find('"', 1, true) and "'" or '"'
        candidates[i] = q .. item .. q
      end
    end
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
          for key in next, prompt_locals.declared do all[#all + 1] = key end
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

return { complete = complete }
