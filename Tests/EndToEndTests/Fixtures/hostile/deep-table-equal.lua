-- command: test
-- status: 1
-- stderr: <none>
-- stdout: they differ at .x.x.x.x.x.x.x.x.x.x…(99981 more levels)….x.x.x.x.x.x.x.x.x.v: 1 where 2 was expected
-- to_equal on tables 100,000 levels deep compares them (it failed with the
-- runner's own "stack overflow"), and names where two differ without a
-- 100,000-step path. Two pass, one fails.
local function deep(n, leaf)
  local top = {}
  local t = top
  for _ = 1, n do t.x = {}; t = t.x end
  t.v = leaf
  return top
end
describe("deep tables", function()
  it("equal", function() expect(deep(100000, 1)):to_equal(deep(100000, 1)) end)
  it("contained", function() expect({ deep(100000, 1) }):to_contain(deep(100000, 1)) end)
  it("different", function() expect(deep(100000, 1)):to_equal(deep(100000, 2)) end)
end)
