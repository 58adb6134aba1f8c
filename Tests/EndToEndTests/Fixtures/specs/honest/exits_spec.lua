-- os.exit in a test fails that test; the run goes on and reports everything.
describe("os.exit", function()
  it("ends nothing when a test calls it", function() os.exit(0) end)
  it("fails the test even when a pcall swallows it", function()
    local ok = pcall(os.exit, true)
    expect(ok):to_be(false)
  end)
  it("still runs the next test", function() expect(1):to_be(1) end)
end)

describe("os.exit in a hook", function()
  after_each(function() os.exit(3) end)
  it("fails the test it runs after", function() end)
end)
