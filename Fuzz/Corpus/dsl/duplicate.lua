local net = require "factoryhost.networking"
configuration "app" {
  register "Cache" { make = function() return net.Cache.new() end },
  register "Cache" { make = function() return net.Cache.new() end },
}
