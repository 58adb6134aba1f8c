local net = require "factoryhost.networking"; require "factoryhost.session"
scope "session"
configuration "app" {
  register "Cache" { scope = "singleton", deps = { user = "UserSession" },
    make = function() return net.Cache.new() end },
  register "UserSession" { scope = "session", make = function() end },
  register "MovieLoader" { deps = { cache = "Cache", session = "HTTPSession" },
    make = function(d) return net.MovieLoader.new(d.cache, d.session) end },
  register "SignInViewModel" { deps = { model = "SignInViewModel" }, make = function() end },
}
local c = container "app"
print("check never gets here")
