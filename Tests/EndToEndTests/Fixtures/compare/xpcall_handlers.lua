-- Message handlers see the stack lua5.4 shows (factoryhost guards Lua handlers
-- so a stop can end them; the guard must never show).
local function handler(m) return debug.traceback("handled: " .. m, 2) end
print(select(2, xpcall(function() error("x") end, handler)))
print(select(2, xpcall(function() local t = nil; return t.x end, function(m) return debug.traceback(m) end)))
print(select(2, xpcall(error, debug.traceback, "direct")))
print(xpcall(function(a, b) return a + b end, print, 1, 2))
print(pcall(xpcall))
print(pcall(xpcall, print))
print(select(2, xpcall(function() error({ code = 7 }) end, function(e) return type(e) .. " " .. e.code end)))
local depth = 0
print(select(2, xpcall(function() error("again") end, function(m) depth = depth + 1; if depth < 3 then error("inner " .. depth) end; return m end)))
