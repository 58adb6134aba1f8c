-- status: 0
-- stderr: <none>
-- stdout: false	no configuration named 'x\nfake.lua:1: forged'
-- stdout: false	unknown-names-on-one-line.lua:14: no scope named 's\nforged' is declared in configuration 'app'
-- stdout: false	unknown-names-on-one-line.lua:16: register "table#a": an argument name 'x\nfake.lua:1: forged\27[2J' holds a control character (a newline at character 2): a name is printable text
-- A name the script gives that names nothing — a configuration, a scope —
-- is echoed on one line (its newline written \n): a newline forged a line
-- of its own in the message. An argument name may not hold one at all.
configuration "app" {}
local function first(text) return (tostring(text):gsub("\n.*", "")) end
local function show(ok, err) print(ok, first(err)) end
show(pcall(container, "x\nfake.lua:1: forged"))
show(pcall(function()
  return container("app"):openScope("s\nforged") end))
show(pcall(function()
  configuration "b" { register "table#a" { args = { ["x\nfake.lua:1: forged\27[2J"] = "string" }, make = function() return {} end } } end))
