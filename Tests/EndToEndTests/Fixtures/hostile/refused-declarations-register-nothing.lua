-- command: check
-- status: 1
-- stderr: <none>
-- stdout: refused-declarations-register-nothing.lua:25: a registration name 'a\nb' holds a control character (a newline at character 2): a name is printable text
-- stdout: refused-declarations-register-nothing.lua:26: a registration name 'c\9d\u{2028}' holds a control character (\9 at character 2): a name is printable text
-- stdout: refused-declarations-register-nothing.lua:27: no registration for table#h in configuration 'app'
-- stdout:   required by table#user as x: table#h
-- stdout:   table#user registered at refused-declarations-register-nothing.lua:27
-- stdout: refused-declarations-register-nothing.lua:28: register "table": 'make' must be a function (got integer)
-- stdout: refused-declarations-register-nothing.lua:29: register "table": 'make' must be a function (got integer)
-- stdout: refused-declarations-register-nothing.lua:31: a configuration name 'x\9\u{2028}' holds a control character (\9 at character 2): a name is printable text
-- stdout: refused-declarations-register-nothing.lua:31: configuration "x\9\u{2028}" was not checked
-- stdout:   the script failed before it, at refused-declarations-register-nothing.lua:31: a configuration name 'x\9\u{2028}' holds a control character (\9 at character 2): a name is printable text
-- stdout:   fix that error: check sees only what the script declares before it
-- stdout: refused-declarations-register-nothing.lua:32: configuration "x\9\u{2028}" was not checked
-- stdout:   the script failed before it, at refused-declarations-register-nothing.lua:31: a configuration name 'x\9\u{2028}' holds a control character (\9 at character 2): a name is printable text
-- stdout:   fix that error: check sees only what the script declares before it
-- stdout: 8 problems in 1 configuration, 3 registrations
-- A declaration check refuses registers nothing under another key: a
-- refused name stood in under the plain key, which hid the missing
-- table#h below and made two refused names a duplicate; two refused set
-- contributions were one plain registration twice. Names are quoted with
-- every character a name may not hold escaped (a tab and U+2028 were raw).
configuration "app" {
  register "table#h" { name = "a\nb", scope = "singleton", make = function() return {} end },
  register "table#h" { name = "c\td\u{2028}", make = function() return {} end },
  register "table#user" { deps = { x = "table#h" }, make = function() return {} end },
  register "table" { into = "set", make = 5 },
  register "table" { into = "set", make = 6 },
}
configuration "x\t\u{2028}" {}
configuration "x\t\u{2028}" {}
