configuration "app" { register "table#t" { make = function() return {} end } }
local c = container "app"
package.path = "sub/?.lua;"..package.path
require "subconf"
