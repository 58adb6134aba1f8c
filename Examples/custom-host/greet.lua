local greetings = require "factoryhost.greetings"
configuration "app" {
  extends = "base",                                  -- where the plugin registered its Greeter
  register "Greeter#formal" { make = function() return greetings.Greeter.new("Good evening") end },
}
local c = container "app"
print(c:resolve("Greeter"):greet("Ada"))
print(c:resolve("Greeter#formal"):greet(arg[1] or "Grace"))
