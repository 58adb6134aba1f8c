-- command: test
-- status: 1
-- stderr: <none>
-- stdout: …(99980 more)
-- What a failure shows of a value is bounded: a 100,000-entry table shows 20
-- entries and a count, a 10 MB string its start and its length.
describe("long values", function()
  it("wide table", function()
    local t = {}
    for i = 1, 100000 do t[i] = i end
    expect(t):to_equal({})
  end)
  it("long string", function() expect(string.rep("a", 10000000)):to_be("b") end)
end)
