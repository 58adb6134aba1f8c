-- status: 0
-- stderr: <none>
-- stdout: true	false
-- A child 100,000 levels down resolves its root's singleton straight from
-- the root (it recursed level by level: "the graph is too deep to build").
configuration "app" { register "table#Clock" { scope = "singleton", make = function() return {} end } }
local root = container "app"
local c = root
for i = 1, 100000 do c = c:child {} end
print(c:resolve "table#Clock" == root:resolve "table#Clock", (pcall(c.resolve, c, "table#Nope")))
