-- command: test
-- status: 1
-- stderr: <none>
-- stdout: 2 passed, 1 failed
-- to_equal and to_contain on tables with cycles of different lengths end:
-- each pair of tables is compared once (one partner per table alternated
-- forever, growing memory until the time limit). The same infinite chain
-- compares equal; a real difference is named.
local function pair() local a = {} a.a = a local b = {} b.a = { a = b } return a, b end
describe("cycles", function()
  it("equal", function() local a, b = pair() expect(a):to_equal(b) end)
  it("contain", function() local a, b = pair() expect({ a }):to_contain(b) end)
  it("differ", function() local a = {} a.a = a local b = { x = 1 } b.a = { a = b } expect(a):to_equal(b) end)
end)
