-- The performance guard's Lua-heavy case: a graph built by Lua factories,
-- resolved from Lua many times; a built singleton resolved; an exported
-- Swift method called. (What the benchmark's graph9, lua_resolve_singleton
-- and exported-method cases time, counted here in instructions.)
local net = require "factoryhost.networking"
configuration "app" {
  register "Cache" { make = function() return net.Cache.new() end },
  register "Cache#shared" { scope = "singleton", make = function() return net.Cache.new() end },
  register "HTTPSession" { make = function() return net.HTTPSession.new { baseURL = "fixture://" } end },
  register "MovieLoader" { deps = { cache = "Cache", session = "HTTPSession" },
    make = function(d) return net.MovieLoader.new(d.cache, d.session) end },
  register "table#screen" { deps = { a = "MovieLoader", b = "MovieLoader", cache = "Cache#shared" },
    make = function(d) return { a = d.a, b = d.b, cache = d.cache } end },
}
local c = container "app"
for _ = 1, 3000 do
  local screen = c:resolve "table#screen"
  assert(screen.a ~= screen.b)
end
local shared
for _ = 1, 30000 do shared = c:resolve "Cache#shared" end
for i = 1, 30000 do shared:set(i % 64, "v") end
assert(shared.count == 64)
