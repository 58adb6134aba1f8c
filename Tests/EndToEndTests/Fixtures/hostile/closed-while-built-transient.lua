-- status: 0
-- stderr: <none>
-- stdout: top: false	cannot hand out table#closer: container 'app' was closed while it was built
-- stdout: alone: false	cannot hand out table#closer: container 'app' was closed while it was built
-- A transient whose factory closes its own container is not handed out, and
-- what depends on it is not built: a closed container built and returned
-- both (a singleton finished after the close was already refused).
local c
configuration "app" {
  register "table#closer" { make = function() c:close(); return { x = 1 } end },
  register "table#top" { deps = { a = "table#closer" }, make = function(d) print("top built after the close"); return d end },
}
c = container "app"
local ok, err = pcall(c.resolve, c, "table#top")
print("top: " .. tostring(ok), (tostring(err):match("cannot [^\n]*")))
c = container "app"
ok, err = pcall(c.resolve, c, "table#closer")
print("alone: " .. tostring(ok), (tostring(err):match("cannot [^\n]*")))
