-- A small composition to explore at the prompt.
local net = require "factoryhost.networking"
scope "screen"
configuration "app" {
  register "Cache" { scope = "singleton", make = function() return net.Cache.new() end },
  register "HTTPSession" { scope = "singleton", make = function() return net.HTTPSession.new { baseURL = "fixture://movies" } end },
  register "MovieLoader" { scope = "screen", deps = { cache = "Cache", session = "HTTPSession" },
    make = function(d) return net.MovieLoader.new(d.cache, d.session) end },
}
configuration "app-tests" { extends = "app",
  register "HTTPSession" { scope = "singleton", override = true, make = function() return net.HTTPSession.new { baseURL = "fixture://tests" } end },
}
greeting = "hello from app.lua"
