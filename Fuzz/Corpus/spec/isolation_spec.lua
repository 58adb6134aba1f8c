-- Every test gets a fresh container, so a singleton never carries state from
-- one test to the next: each test below finds the Cache empty, whichever
-- order they run in. (If containers were shared, the second would find 1.)
local net = require "factoryhost.networking"

configuration "app" {
  register "Cache" { scope = "singleton", make = function() return net.Cache.new() end },
}

describe("a singleton Cache", { config = "app" }, function()
  it("is empty in the first test", function(c)
    local cache = c:resolve "Cache"
    expect(cache.count):to_be(0)
    cache:set(1, "Alien")
    expect(c:resolve("Cache").count):to_be(1)     -- the same instance within the test
  end)

  it("is empty again in the second test", function(c)
    local cache = c:resolve "Cache"
    expect(cache.count):to_be(0)
    cache:set(2, "Brazil")
  end)

  it("is what plain resolve returns too", function(c)
    expect(resolve "Cache"):to_be(c:resolve "Cache")
  end)
end)

describe("containers made by hand", function()
  it("share a singleton within one container, never across two", function()
    local first, second = container "app", container "app"
    first:resolve("Cache"):set(1, "Alien")
    expect(first:resolve("Cache").count):to_be(1)
    expect(second:resolve("Cache").count):to_be(0)
  end)
end)
