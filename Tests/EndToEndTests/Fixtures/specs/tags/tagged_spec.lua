describe("loaders", { tags = "network" }, function()
  it("fetches", { tags = { "slow" } }, function() end)
  it("caches", function() end)
end)

describe("screens", function()
  it("signs in", { tags = { "fast", "session" } }, function() end)
  it("signs out", function() end)
end)

describe("hyphens", function()
  it("signs-in twice", function() end)
end)
