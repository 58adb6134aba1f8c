require "shop"
it("says goodbye", { config = "shop" }, function() expect(resolve "string#farewell"):to_be("bye") end)
