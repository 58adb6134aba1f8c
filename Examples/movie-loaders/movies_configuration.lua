-- The "factories avoid shared state" article, as configurations.
--
-- A singleton MovieLoader would share its pending requests between screens.
-- Instead a MovieLoaderFactory holds what may be shared (the cache, the HTTP
-- session) and every screen gets a loader of its own. Two ways, side by side:
--
--   the article's: screens receive the factory and pass it on — a category
--     screen makes its own loader from it and hands the factory (never its
--     loader) to the recommendations screen it opens;
--   the container's: a `screen`-scoped MovieLoader — one loader per open
--     screen scope, cancelled when the scope closes.
local net = require "factoryhost.networking"

-- Where the movies are: a configuration value (main.lua gives its server's
-- address with values { … }; --set baseURL=… or $MOVIES_BASE_URL win over it).
value "baseURL" { type = "string", default = "http://127.0.0.1:8080", env = "MOVIES_BASE_URL" }

scope "screen"

configuration "app" {
  register "Cache" { scope = "singleton", make = function() return net.Cache.new() end },
  register "HTTPSession" { scope = "singleton", deps = { url = value "baseURL" },
    make = function(d) return net.HTTPSession.new { baseURL = d.url } end },
  register "MovieLoaderFactory" { scope = "singleton",
    deps = { cache = "Cache", session = "HTTPSession" },
    make = function(d) return net.MovieLoaderFactory.new(d.cache, d.session) end },
  register "MovieLoader" { scope = "screen",
    deps = { factory = "MovieLoaderFactory" },
    make = function(d) return d.factory:makeMovieLoader() end },
  -- The article's way: a screen given the factory (its category is a runtime argument).
  register "CategoryViewController" {
    deps = { factory = "MovieLoaderFactory" },
    args = { category = "string" },
    make = function(d, a) return net.CategoryViewController.new(a.category, d.factory) end },
  register "DataLoader" {
    deps = { session = "HTTPSession" },
    make = function(d) return net.DataLoader.new(d.session) end },
}

-- Tests answer from fixtures instead of the network.
configuration "app-tests" {
  extends = "app",
  register "HTTPSession" { scope = "singleton", override = true,
    make = function() return net.HTTPSession.new { baseURL = "fixture://movies" } end },
}

