-- What counts as built: a test's builds (not the file's top level), a
-- factory that succeeded (not one that failed), builds of a test whose
-- worker died later (reported as each test ends).
configuration "edges" {
  register "string#top" { make = function() return "top" end },
  register "string#fails" { make = function() error("boom") end },
  register "string#early" { make = function() return "early" end },
  register "string#late" { make = function() return "late" end },
}
local top = container("edges"):resolve "string#top"   -- the top level: not a test's build
describe("edges", { config = "edges" }, function()
  it("builds early", function(c) expect(c:resolve "string#early"):to_be("early") end)
  it("fails to build", function(c) expect(function() c:resolve "string#fails" end):to_fail("boom") end)
  it("is stuck in C until its worker is ended", function()
    ("a"):rep(3000):find(("a*"):rep(12) .. "b")
  end)
  it("builds late, in the next worker", function(c) expect(c:resolve "string#late"):to_be("late") end)
end)
