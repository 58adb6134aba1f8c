-- check on a spec file: its top-level configurations; tests do nothing.
require "factoryhost.networking" configuration "app-tests" { register "Cache" { deps = { s = "HTTPSession" }, make = function() end } }
describe("a suite", { config = "app-tests" }, function()
  before_each(function(c) error("hooks do not run under check") end)
  it("declares its own configuration", function()
    configuration "scratch" { }
    expect(1):to_be(2)
  end)
end)
