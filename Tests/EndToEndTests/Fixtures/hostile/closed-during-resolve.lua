-- status: 0
-- stderr: <none>
-- stdout: false	cannot hand out table#closer: container 'app' was closed while it was built
-- A factory that closes its own container mid-resolve: what the resolve would
-- build after that (a later dependency, a transient) is refused too — it was
-- built, from a closed container, before.
local c
configuration "app" {
  register "table#closer" { make = function() c:close(); return {} end },
  register "table#later" { make = function() print("built after close"); return {} end },
  register "table#top" { deps = { a = "table#closer", b = "table#later" }, make = function(d) return d end },
}
c = container "app"
local ok, err = pcall(c.resolve, c, "table#top")
print(ok, (tostring(err):match("cannot [^\n]*")))
