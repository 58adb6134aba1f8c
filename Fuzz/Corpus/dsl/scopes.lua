local net = require "factoryhost.screens"
scope "session"
scope("screen", { within = "session" })
configuration "app" {
  register "User" { scope = "session", make = function() return net.User.new("ada") end },
  register "UsersService" { make = function() return net.UsersService.new { "ada" } end },
}
configuration "app-tests" { extends = "app" }
local c = container "app"
local s = c:openScope "session"
print(s:resolve "User")
s:close()
