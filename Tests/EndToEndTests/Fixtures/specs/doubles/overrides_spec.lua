-- override "Key" { … } in a test or its before_each: this test's container
-- only, checked like any registration, before the container keeps anything.
local net = require "factoryhost.networking"
configuration "app" {
  register "HTTPSession" { scope = "singleton", make = function() return net.HTTPSession.new { baseURL = "fixture://movies.example" } end },
  register "Cache" { scope = "singleton", make = function() return net.Cache.new() end },
  register "MovieLoader" { deps = { cache = "Cache", session = "HTTPSession" },
    make = function(d) return net.MovieLoader.new(d.cache, d.session) end },
}
describe("overrides", { config = "app" }, function()
  before_each(function()
    override "Cache" { scope = "singleton", make = function() return net.Cache.new() end }
  end)
  it("replace a registration for this test, for what depends on it too", function(c)
    override "HTTPSession" { scope = "singleton", make = function() return net.HTTPSession.new { baseURL = "fixture://other" } end }
    expect(c:resolve("MovieLoader").session.baseURL):to_be("fixture://other")
    expect(resolve("HTTPSession")):to_be(c:resolve "HTTPSession")
    expect(c.configuration):to_be("app (test overrides)")
  end)
  it("are gone in the next test", function(c)
    expect(c:resolve("MovieLoader").session.baseURL):to_be("fixture://movies.example")
  end)
  it("come before the container keeps anything", function(c)
    c:resolve "HTTPSession"
    override "HTTPSession" { make = function() end }
  end)
  it("are typed", function(c)
    override "HTTPSession" { make = function() return "a string" end }
    c:resolve "HTTPSession"
  end)
  it("override something", function() override "Request" { make = function() end } end)
end)
it("need a test's container", function() override "Cache" { make = function() end } end)
