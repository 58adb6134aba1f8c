-- status: 0
-- stderr: <none>
-- stdout: false	cannot build table#made: container 'app' is closed
-- Closed means closed: a closed container builds no transient either (it
-- built one after close, though it refused singletons), nor through a
-- provider taken before the close, nor through a child made before it.
configuration "app" {
  register "table#made" { make = function() return {} end },
  register "table#user" { deps = { made = provider "table#made" }, make = function(d) return { made = d.made } end },
}
local c = container "app"
local user = c:resolve "table#user"
local child = c:child {}
c:close()
print(pcall(c.resolve, c, "table#made"))
print(pcall(user.made))
print(pcall(c.provider, c, "table#made"))
print(pcall(child.resolve, child, "table#made"))
