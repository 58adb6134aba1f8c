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
it("switches the collector to incremental", function()
  collectgarbage("incremental")
  setmetatable({}, { __gc = function() finalized[#finalized + 1] = "incremental" end })
end)
it("finds it generational again, and what it dropped finalized", function()
  expect(collectgarbage("generational")):to_be("generational")
  expect(#fixture):to_be(10000)
  expect(finalized[4]):to_be("incremental")
end)
-- Objects a test drops after they aged (the test allocated enough for
-- collections to run, or asked for one) are finalized before the next test
-- too, and a finalizer among them that exits fails its own test.
local aged = {}
it("drops objects that aged", function()
  local keep = setmetatable({}, { __gc = function() aged[#aged + 1] = "by allocation" end })
  for _ = 1, 200 do local t = {} for j = 1, 1000 do t[j] = { j } end end
  keep = nil
  local kept = setmetatable({}, { __gc = function() aged[#aged + 1] = "by a collection" end })
  collectgarbage()
  kept = nil
end)
it("finds the aged finalized", function() expect(#aged):to_be(2) end)
