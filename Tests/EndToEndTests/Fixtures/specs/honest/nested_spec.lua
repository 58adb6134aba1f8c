-- Declaring tests or hooks inside a running test is an error, not a silent no-op.
it("it inside it", function() it("inner", function() end) end)
it("describe inside it", function() describe("inner", function() end) end)
it("a hook inside it", function() before_each(function() end) end)
it("pending inside it", function() pending("later") end)
