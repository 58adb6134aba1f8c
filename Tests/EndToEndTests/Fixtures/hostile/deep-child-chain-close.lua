-- status: 0
-- stderr: <none>
-- stdout: closed 100000 children
-- Closing the root of a chain of children deeper than a thread's stack
-- recurses through none of it (it overflowed the stack: SIGSEGV).
configuration "app" {
  register "table#log" { scope = "singleton", make = function() return { close = function() end } end },
}
local root = container "app"
local c = root
for i = 1, 100000 do c = c:child {} end
root:resolve "table#log"
root:close()
print("closed 100000 children")
