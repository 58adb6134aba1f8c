local net = require "factoryhost.networking"
configuration "app" {
  register "Cache#tracking" { scope = "singleton", make = function() return net.Cache.new() end },
}
