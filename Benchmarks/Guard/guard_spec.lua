-- The performance guard's spec case: a file of 300 tests, each with a fresh
-- container (run by `factoryhost test --jobs 1`, a worker process included).
local net = require "factoryhost.networking"
configuration "app" {
  register "Cache" { scope = "singleton", make = function() return net.Cache.new() end },
  register "HTTPSession" { make = function() return net.HTTPSession.new { baseURL = "fixture://" } end },
  register "MovieLoader" { deps = { cache = "Cache", session = "HTTPSession" },
    make = function(d) return net.MovieLoader.new(d.cache, d.session) end },
}
describe("the guard", { config = "app" }, function()
  for i = 1, 300 do
    it("resolves " .. i, function(c)
      local loader = c:resolve "MovieLoader"
      expect(loader):to_be_a("MovieLoader")
      expect(c:resolve "Cache"):to_be(c:resolve "Cache")
    end)
  end
end)
