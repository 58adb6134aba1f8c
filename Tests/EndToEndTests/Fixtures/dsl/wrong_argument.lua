local net = require "factoryhost.networking"
local loader = net.MovieLoader.new(net.Cache.new(), "https://movies.example")
