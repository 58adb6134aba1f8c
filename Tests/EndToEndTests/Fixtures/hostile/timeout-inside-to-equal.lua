-- command: test
-- args: --timeout 1s
-- status: 1
-- stderr: <none>
-- stdout: timeout-inside-to-equal.lua:12: timed out after 1 s
-- stdout: 0 passed, 1 failed
-- A test stopped by its limit while the library worked for it (to_equal
-- sorting the keys of two big tables) is located at the user's expect line,
-- not inside the test library ("[factoryhost test]:338").
describe("big tables", function()
  it("compares for too long", function()
    local a, b = {}, {} for i = 1, 200000 do a["k" .. i] = i; b["k" .. i] = i end b.k1 = 0 for _ = 1, 1000 do expect(a):to_equal(b) end
  end)
end)
