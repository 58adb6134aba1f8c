local net = require "factoryhost.networking"
require "movies_configuration"

describe("movie loaders over real HTTP", { config = "app" }, function()
  local server
  before_each(function()
    server = net.LoopbackServer.start {
      routes = { ["/movies/1"] = "Alien (1979)", ["/movies/2"] = "Brazil (1985)" },
      delays = { ["/movies/2"] = 3.0 },
    }
    values { baseURL = server.baseURL }
  end)
  after_each(function() server:stop() end)

  it("fetches through the session and caches what it got", function(c)
    local screen = c:openScope "screen"
    local loader = screen:resolve "MovieLoader"
    expect(loader:load(1)):to_be("Alien (1979)")
    expect(loader:load(1)):to_be("Alien (1979)")
    expect(loader.fetches):to_be(1)
    expect(server.requestCount):to_be(1)
  end)

  it("reports HTTP errors with the URL", function(c)
    local loader = c:openScope("screen"):resolve "MovieLoader"
    expect(function() loader:load(404) end):to_fail("GET " .. server.baseURL .. "/movies/404: HTTP 404 no route for /movies/404")
  end)

  it("gives every screen its own loader and shares the cache", function(c)
    local a, b = c:openScope "screen", c:openScope "screen"
    local first, second = a:resolve "MovieLoader", b:resolve "MovieLoader"
    expect(first).never:to_be(second)
    expect(a:resolve "MovieLoader"):to_be(first)
    expect(first.cache):to_be(second.cache)
    first:load(1)
    expect(second:load(1)):to_be("Alien (1979)")
    expect(second.fetches):to_be(0)
  end)

  it("cancels a pending request when its screen's scope closes", function(c)
    local home, details = c:openScope "screen", c:openScope "screen"
    local loader = details:resolve "MovieLoader"
    local request = loader:start(2)                    -- the server takes 3 s
    expect(request.state):to_be("pending")
    expect(loader.pendingCount):to_be(1)
    details:close()
    expect(request.state):to_be("cancelled")
    expect(loader.pendingCount):to_be(0)
    expect(function() request:wait(1) end):to_fail("/movies/2: the request was cancelled")
    expect(home:resolve("MovieLoader"):load(1)):to_be("Alien (1979)")   -- other screens go on
  end)

  -- The article's way: the factory is handed down the screens, each makes
  -- its own loader, and no two screens share a request.
  it("hands the factory down: a category screen opens recommendations with it", function(c)
    local category = c:resolve("CategoryViewController", { category = "drama" })
    local recommendations = category:openRecommendations(1)
    expect(recommendations.loaderFactory):to_be(category.loaderFactory)      -- the factory is passed on
    expect(recommendations.loaderFactory):to_be(c:resolve "MovieLoaderFactory")
    expect(recommendations.loader).never:to_be(category.loader)              -- each screen makes its own loader
    expect(recommendations.loader.cache):to_be(category.loader.cache)        -- what may be shared is
    expect(category:loadMovie(1)):to_be("Alien (1979)")
    expect(recommendations:loadMovie()):to_be("Alien (1979)")                -- from the shared cache
    expect(recommendations.loader.fetches):to_be(0)
    expect(function() c:resolve("CategoryViewController", { category = "" }) end):to_fail("a category screen needs a category name")
  end)

  it("shares no request between screens: closing one cancels only its own", function(c)
    local category = c:resolve("CategoryViewController", { category = "drama" })
    local recommendations = category:openRecommendations(2)
    local mine, theirs = category:startLoading(2), recommendations:startLoading()   -- the server takes 3 s
    expect(mine).never:to_be(theirs)
    expect(category.loader.pendingCount):to_be(1)
    expect(recommendations.loader.pendingCount):to_be(1)
    category:close()
    expect(mine.state):to_be("cancelled")
    expect(theirs.state):to_be("pending")
    recommendations:close()
    expect(theirs.state):to_be("cancelled")
  end)

  it("needs an open screen: a loader is never made without one", function(c)
    expect(function() c:resolve "MovieLoader" end):to_fail("no 'screen' scope is open to hold MovieLoader")
  end)
end)

describe("requests", { config = "app-tests" }, function()
  it("make a fresh stateful request per perform", function(c)
    local data = c:resolve "DataLoader"
    local request = net.Request.new "/movies/7"
    local first, second = data:perform(request), data:perform(request)
    expect(first).never:to_be(second)
    expect(first:wait()):to_be("movie 7 from fixture://movies")
    expect(second.state):to_be("done")
  end)

  it("refuse to be performed twice", function(c)
    local stateful = net.Request.new("/movies/1"):makeStateful()
    stateful:perform(c:resolve "HTTPSession")
    expect(function() stateful:perform(c:resolve "HTTPSession") end):to_fail("already performed (done)")
  end)

  it("check their path", function()
    expect(function() net.Request.new "movies/1" end):to_fail("a request path starts with '/' (got 'movies/1')")
  end)
end)

describe("app-tests", { config = "app-tests" }, function()
  it("answers from fixtures, overriding only the session", function(c)
    local loader = c:openScope("screen"):resolve "MovieLoader"
    expect(loader:load(5)):to_be("movie 5 from fixture://movies")
    expect(c:resolve "MovieLoaderFactory"):to_be_a("MovieLoaderFactory")
  end)
end)

describe("bad network input", function()
  it("is a clear error", function()
    expect(function() net.CategoryViewController.new("", nil) end):to_fail("bad argument #2 to 'CategoryViewController.new' (MovieLoaderFactory expected, got nil)")
    expect(function() net.LoopbackServer.start(5) end):to_fail("bad argument #1 to 'LoopbackServer.start' (table { routes")
    -- Port 1 on loopback: nothing listens there.
    expect(function() net.HTTPSession.new({ baseURL = "http://127.0.0.1:1" }):get("/x") end)
      :to_fail("GET http://127.0.0.1:1/x: Failed to connect to 127.0.0.1 port 1")
    expect(function() net.HTTPSession.new({ baseURL = "http://127.0.0.1:notaport" }):get("/x") end)
      :to_fail("GET http://127.0.0.1:notaport/x: URL using bad/illegal format")
  end)
end)
