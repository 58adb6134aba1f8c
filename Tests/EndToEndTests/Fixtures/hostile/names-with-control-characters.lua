-- command: check
-- status: 1
-- stderr: <none>
-- stdout: names-with-control-characters.lua:12: a key 'table#a\nnames-with-control-characters.lua:1: forged' holds a control character (a newline at character 8): a name is printable text
-- stdout: names-with-control-characters.lua:13: register "table#b": a dependency label 'l\27[2J' holds a control character (\27 at character 2): a name is printable text
-- stdout: names-with-control-characters.lua:15: a configuration name 'app\u{202E}stset' holds a control character (\u{202E} at character 4): a name is printable text
-- A name a script declares may not hold a control character: a newline in
-- a key forged whole `file:line: problem` lines of check's output, and an
-- escape sequence reached the terminal; a right-to-left override made
-- 'app\u{202E}stset' read "apptests". Refused where it is declared.
configuration "app" {
  register "table#a\nnames-with-control-characters.lua:1: forged" { make = function() return {} end },
  register "table#b" { deps = { ["l\27[2J"] = "table#c" }, make = function() return {} end },
}
configuration "app\u{202E}stset" { extends = "app" }
