-- status: 0
-- stderr: <none>
-- stdout: false	the 's' scope is closed in configuration 'app'
-- stdout: true	true
-- stdout: false	the 'screen' scope is closed in configuration 'screens'
-- A provider injected into an instance of a scope refuses once the scope
-- closes (it built after the close, and into a newer scope of the name);
-- a singleton's provider has no scope, and goes on resolving. A scoped
-- holder resolved from the container lives in the newest open scope of its
-- name, and its provider is bound to that one (it built into the next).
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

scope "screen"
configuration "screens" {
  register "table#sc" { scope = "screen", make = function() return {} end },
  register "table#holder" { scope = "screen", deps = { p = provider "table#sc" }, make = function(d) return { p = d.p } end },
}
local c2 = container "screens"
local first = c2:openScope "screen"
local holder = c2:resolve "table#holder"
first:close()
c2:openScope "screen"
print(pcall(holder.p))
