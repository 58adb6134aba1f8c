-- Script arguments reach arg and ... as under run.
require "factoryhost.networking" local mode = ...
if arg[1] == "full" and mode == "full" and arg[0] == "arguments.lua" then
  configuration "app" { register "Cache" { deps = { s = "HTTPSession" }, make = function() end } }
end
