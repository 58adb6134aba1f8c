-- The performance guard's small configuration, as the examples write them
-- (the benchmark's startupDSLScript): run, and checked.
local net = require "factoryhost.networking"
scope "screen"
configuration "app" {
  register "Cache" { scope = "singleton", make = function() return net.Cache.new() end },
  register "HTTPSession" { scope = "singleton", make = function() return net.HTTPSession.new { baseURL = "fixture://" } end },
  register "MovieLoader" { deps = { cache = "Cache", session = "HTTPSession" },
    make = function(d) return net.MovieLoader.new(d.cache, d.session) end },
  register "MovieLoader#screen" { scope = "screen", deps = { cache = "Cache", session = "HTTPSession" },
    make = function(d) return net.MovieLoader.new(d.cache, d.session) end },
  register "table#settings" { scope = "singleton", make = function() return { retries = 3 } end },
  register "table#client" { deps = { settings = "table#settings", loader = "MovieLoader" },
    make = function(d) return { settings = d.settings, loader = d.loader } end },
}
configuration "app-tests" { extends = "app",
  register "HTTPSession" { override = true, scope = "singleton", make = function() return net.HTTPSession.new { baseURL = "fixture://tests" } end },
}
local client = container("app"):resolve "table#client"
assert(client.settings.retries == 3)
