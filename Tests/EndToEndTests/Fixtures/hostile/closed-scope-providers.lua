-- status: 0
-- stderr: <none>
-- stdout: false	the 's' scope is closed in configuration 'app'
-- stdout: true	true
-- A provider injected into an instance of a scope refuses once the scope
-- closes (it built after the close, and into a newer scope of the name);
-- a singleton's provider has no scope, and goes on resolving.
scope "s"
configuration "app" {
  register "table#t" { make = function() return {} end },
  register "table#h" { scope = "s", deps = { mk = provider "table#t" }, make = function(d) return { mk = d.mk } end },
  register "table#single" { scope = "singleton", deps = { mk = provider "table#t" }, make = function(d) return { mk = d.mk } end },
}
local c = container "app"
local s = c:openScope "s"
local h = s:resolve "table#h"
local single = s:resolve "table#single"
s:close()
print(pcall(h.mk))
print(pcall(function() return single.mk() ~= nil end))
