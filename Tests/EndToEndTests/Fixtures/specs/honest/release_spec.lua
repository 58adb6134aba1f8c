-- What a test made and dropped is collected before the next test starts (its
-- finalizers have run), by a young collection that costs what the test
-- allocated rather than the file's whole heap; and a collector a test put in
-- incremental mode is generational again for the next.
local finalized = {}
local fixture = {}
for i = 1, 10000 do fixture[i] = { i } end
it("drops objects with finalizers", function()
  for i = 1, 3 do setmetatable({}, { __gc = function() finalized[#finalized + 1] = i end }) end
  expect(#finalized):to_be(0)
end)
it("finds them finalized", function() expect(#finalized):to_be(3) end)
it("switches the collector to incremental", function() collectgarbage("incremental") end)
it("finds it generational again", function()
  expect(collectgarbage("generational")):to_be("generational")
  expect(#fixture):to_be(10000)
end)
