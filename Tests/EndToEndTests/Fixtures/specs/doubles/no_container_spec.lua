-- A block's last test has no container (its configuration does not exist):
-- the block's after_all still runs after it, and its failure is reported.
describe("a block", function()
  after_all(function() error("teardown broke") end)
  it("passes", function() end)
  it("names a configuration that does not exist", { config = "nope" }, function() end)
end)
