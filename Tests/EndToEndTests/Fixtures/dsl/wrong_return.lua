require "factoryhost.networking" configuration "app" {
  register "Cache" { make = function() return "a string" end },
}
container("app"):resolve "Cache"
