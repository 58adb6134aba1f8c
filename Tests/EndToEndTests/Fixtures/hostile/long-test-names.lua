-- command: test
-- status: 1
-- stderr: <none>
-- stdout: (4194064 bytes left out)
-- stdout: ✓ ok
-- stdout: long-test-names.lua:12: expected 1 to equal 2
-- output under: 6000
-- A test, a describe or a tag named with 4 MB of text (built from data) is
-- shown by its start and end, every time it is printed: the report was 8 MB.
local big = string.rep("x", 4 * 1024 * 1024)
describe(big, function()
  it(big, { tags = big }, function() expect(1):to_equal(2) end)
  it("ok", function() end)
end)
