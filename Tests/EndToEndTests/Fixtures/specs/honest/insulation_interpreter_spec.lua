-- Interpreter state a test changes is back for the next: default files,
-- shared metatables, a debug hook, a stopped collector, preload and searchers.
local scratch = os.tmpname()
local function change_everything()
  io.output(scratch)
  getmetatable("").__call = function(s) return s end
  debug.setmetatable(1, { __call = function() return "called a number" end })
  debug.setmetatable(nil, { __index = function() return "ghost" end })
  debug.sethook(function() end, "l")
  collectgarbage("stop")
  package.preload.ghost = function() return "ghost module" end
  package.searchers[#package.searchers + 1] = function() return function() return "found" end end
end
local function expect_nothing_changed()
  expect(io.output()):to_be(io.stdout)
  expect(getmetatable("").__call):to_be_nil()
  expect(debug.getmetatable(1)):to_be_nil()
  expect(debug.getmetatable(nil)):to_be_nil()
  expect(debug.gethook()):to_be_nil()
  expect(collectgarbage("isrunning")):to_be(true)
  expect(package.preload.ghost):to_be_nil()
  expect(pcall(require, "nowhere_to_be_found")):to_be(false)
end
it("one", function() expect_nothing_changed(); change_everything() end)
it("two", function() expect_nothing_changed(); change_everything() end)
it("three", function() expect_nothing_changed(); change_everything(); os.remove(scratch) end)
