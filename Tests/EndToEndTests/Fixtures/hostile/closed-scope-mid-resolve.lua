-- status: 0
-- stderr: <none>
-- stdout: false	cannot hand out table#Closer: scope 's' was closed while it was built in configuration 'app'
-- stdout:   resolution path: table#Top → table#Closer
-- stdout: false	cannot hand out table#Closer: scope 's' was closed while it was built in configuration 'app'
-- stdout:   resolution path: table#Tr → table#Closer
-- stdout: built after the close: 0
-- A factory that closes the scope it is resolved through (attack 11): what
-- depended on it was still built, and a transient was handed out of the
-- closed scope ("true, table"), where a closed container refused.
scope "s"
local sc
local built = 0
configuration "app" {
  register "table#Closer" { make = function() sc:close() return {} end },
  register "table#Top" { scope = "s", deps = { b = "table#Closer" }, make = function() built = built + 1 return {} end },
  register "table#Tr" { deps = { b = "table#Closer" }, make = function() built = built + 1 return {} end },
}
local c = container "app"
sc = c:openScope "s"
print(pcall(sc.resolve, sc, "table#Top"))
sc = c:openScope "s"
print(pcall(sc.resolve, sc, "table#Tr"))
print("built after the close: " .. built)
