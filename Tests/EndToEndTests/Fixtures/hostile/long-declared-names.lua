-- status: 0
-- stderr: <none>
-- stdout: a configuration name is 100000 bytes long, starting 'CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC…': a name is at most 256 bytes
-- stdout: a scope name is 100000 bytes long
-- stdout: a key is 100006 bytes long
-- stdout: register "table#x": a dependency label is 100000 bytes long
-- stdout: a registration name is 100000 bytes long
-- output under: 2000
-- A configuration, scope, key, label or registration name of 100 KB is
-- refused where it is declared: graphs, check's problems and the REPL
-- printed it whole, 300–500 KB of output.
local big = string.rep("C", 100000)
for _, src in ipairs {
  'configuration(BIG) {}',
  'scope(BIG)',
  'configuration "a" { register("table#" .. BIG) { make = function() return {} end } }',
  'configuration "b" { register "table#x" { deps = { [BIG] = "table#y" }, make = function() return {} end } }',
  'configuration "c" { register "table#x" { name = BIG, make = function() return {} end } }',
} do
  local ok, err = pcall(load(src, "=src", "t", setmetatable({ BIG = big }, { __index = _G })))
  print(ok, tostring(err):sub(1, 200))
end
