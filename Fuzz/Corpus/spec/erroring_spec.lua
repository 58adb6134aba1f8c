describe("errors", function()
  it("raises with error()", function()
    error("the store is closed")
  end)

  it("fails an assert()", function()
    local user = nil
    assert(user, "no user signed in")
  end)

  it("calls a method on nil", function()
    local loader
    loader:load(1)
  end)

  it("goes on after errors", function()
    expect(1):to_be(1)
  end)

  describe("in a hook", function()
    before_each(function() error("before_each broke") end)
    it("is not run", function() error("unreachable") end)
  end)
end)
