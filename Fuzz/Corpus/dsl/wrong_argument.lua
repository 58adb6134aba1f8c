local net = require "factoryhost.networking"
local loader = net.MovieLoader.new(net.Cache.new(), "fixture://movies.example")
