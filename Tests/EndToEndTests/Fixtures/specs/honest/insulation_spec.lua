-- Each test starts from the file's top-level state, whichever ran first.
require "factoryhost.networking" configuration "base" { register "Cache" { scope = "singleton", make = function() return {} end } }
settings = { mode = "top" }

local function declare_everything()
  configuration "declared-in-a-test" { }
  scope "declared-in-a-test"
  configuration "base" { register "table#extra" { make = function() return {} end } }
  leaked_global = true
  settings = { mode = "changed" }
  os.time = function() return 0 end
  string.shout = string.upper
  require("insulation_module").touched = true
  setmetatable(_G, { __index = function(_, k) return "ghost " .. k end })
end

local function expect_nothing_declared()
  expect(rawget(_G, "leaked_global")):to_be_nil()
  expect(settings.mode):to_be("top")
  expect(os.time()).never:to_be(0)
  expect(string.shout):to_be_nil()
  expect(package.loaded.insulation_module):to_be_nil()
  expect(require("insulation_module").touched):to_be_nil()
  expect(getmetatable(_G)):to_be_nil()
  expect(function() container "declared-in-a-test" end):to_fail("no configuration named 'declared-in-a-test'")
  expect(function() container("base"):resolve "table#extra" end):to_fail("no registration for table#extra in configuration 'base'")
end

it("one", function() expect_nothing_declared(); declare_everything() end)
it("two", function() expect_nothing_declared(); declare_everything() end)
it("three", function() expect_nothing_declared(); declare_everything() end)
