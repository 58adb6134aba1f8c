-- factoryhost run Examples/movie-loaders/main.lua
local net = require "factoryhost.networking"
require "movies_configuration"

-- A real HTTP server on loopback, one of whose answers is slow.
local server = net.LoopbackServer.start {
  routes = { ["/movies/1"] = "Alien (1979)", ["/movies/2"] = "Brazil (1985)", ["/movies/3"] = "Heat (1995)" },
  delays = { ["/movies/3"] = 2.0 },
}
values { baseURL = server.baseURL }

local app = container "app"

-- Two screens, each with its own loader; the cache is shared.
local home, details = app:openScope "screen", app:openScope "screen"
local homeLoader, detailsLoader = home:resolve "MovieLoader", details:resolve "MovieLoader"
print("one loader per screen:", homeLoader ~= detailsLoader, homeLoader == home:resolve "MovieLoader")
print(homeLoader:load(1), "| fetches:", homeLoader.fetches)
print(detailsLoader:load(1), "| fetches:", detailsLoader.fetches, "(from the shared cache)")

-- The article's Request: one immutable request, a fresh stateful one per perform.
local request = net.Request.new "/movies/2"
local data = app:resolve "DataLoader"
local first, second = data:perform(request), data:perform(request)
print(first:wait(), "|", second:wait(), "| same state object:", first == second)

-- Closing a screen cancels what its loader still has pending.
local slow = detailsLoader:start(3)
print("pending on details:", detailsLoader.pendingCount, slow.state)
details:close()
print("after details closed:", slow.state, select(2, pcall(slow.wait, slow, 1)))
print("home is unaffected:", homeLoader:load(2))

home:close()

-- The article's way: the factory handed down the screens.
local category = app:resolve("CategoryViewController", { category = "sci-fi" })
local recommendations = category:openRecommendations(1)
print("the factory is passed on:", recommendations.loaderFactory == category.loaderFactory,
      "| each screen its own loader:", recommendations.loader ~= category.loader)
print(category:loadMovie(1), "|", recommendations:loadMovie(), "| fetches:", category.loader.fetches,
      recommendations.loader.fetches, "(the cache is shared, the loaders are not)")
category:close()
recommendations:close()
server:stop()
