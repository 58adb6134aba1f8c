-- command: test
-- args: --timeout 1
-- status: 1
-- stderr: <none>
-- stdout: ✗ closing the file failed (1)
-- A finalizer that loops as a worker closes the file's state, after every
-- test passed: it is the file's failure, in closing it — it was blamed on
-- "loading the file" and on the last test, which had passed.
local keep = setmetatable({}, { __gc = function() while true do end end })
describe("tests that pass", function()
  it("one", function() assert(keep) end)
  it("two", function() end)
end)
