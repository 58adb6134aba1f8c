-- args: --timeout 1
-- status: 1
-- stderr: time limit exceeded (1.0 seconds), and the code did not stop within 1 s more
-- A Swift method that blocks (an HTTP request to a server that answers in a
-- minute): nothing in Lua runs, so only the hard stop can end it.
local net = require "factoryhost.networking"
local server = net.LoopbackServer.start { routes = { ["/slow"] = "late" }, delays = { ["/slow"] = 60 } }
local session = net.HTTPSession.new { baseURL = server.baseURL }
print(session:get("/slow"))
