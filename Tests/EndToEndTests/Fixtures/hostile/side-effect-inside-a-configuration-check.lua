-- command: check
-- status: 1
-- stderr: <none>
-- stdout: check stopped inside it, at side-effect-inside-a-configuration-check.lua:10: os.execute would start a process
-- output under: 2000
-- A side effect inside a configuration's body stops check there, and it
-- says so (it said "the script never ran it").
configuration "app" {
  register "table#a" { make = function() return {} end },
  os.execute("true"),
}
