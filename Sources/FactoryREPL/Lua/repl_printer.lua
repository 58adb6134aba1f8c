-- The REPL's pretty printer, compiled when first used (see repl.lua, which
-- passes what the parts share).
local shared = ...
local describe, is_identifier, getmetatable = shared.describe, shared.is_identifier, shared.getmetatable
local type, next, tostring, format, concat, sort =
  shared.type, shared.next, shared.tostring, shared.format, shared.concat, shared.sort
local rawget, rawlen, select, mathtype, pcall = shared.rawget, shared.rawlen, shared.select, shared.mathtype, shared.pcall
local utf8len, byte, sub = shared.utf8len, shared.byte, shared.sub

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

-- A string as Lua reads it back. Bytes that are not UTF-8 are written
-- \xNN: printed raw they would show as U+FFFD, the same as a real one.
local function quote(s)
  local quoted = format("%q", s):gsub("\\\n", "\\n")
  if utf8len(quoted) then return quoted end
  local parts, at = {}, 1
  while at <= #quoted do
    local valid, bad = utf8len(quoted, at)
    if valid then parts[#parts + 1] = sub(quoted, at); break end
    parts[#parts + 1] = sub(quoted, at, bad - 1)
    parts[#parts + 1] = format("\\x%02X", byte(quoted, bad))
    at = bad + 1
  end
  return concat(parts)
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
  -- A table a Lua factory built says where it came from, as a Swift object does.
  local info = depth == 0 and show_origins and describe(value)
  local tail = info and info.origin and ("  -- " .. info.origin) or ""
  if #parts == 0 then return "{}" .. tail end
  local one = "{ " .. concat(parts, ", ") .. " }"
  if #one + #indent <= WIDTH and not one:find("\n") then return one .. tail end
  return "{" .. tail .. "\n" .. indent .. "  " .. concat(parts, ",\n" .. indent .. "  ") .. "\n" .. indent .. "}"
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

return { pretty = function(value) return pretty(value) end, show = show, compact = compact }
