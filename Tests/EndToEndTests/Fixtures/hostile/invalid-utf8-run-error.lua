-- command: run
-- status: 1
-- stderr: factoryhost: invalid-utf8-run-error.lua:8: bad \xFF and a real � apart \27[2J
-- An error raised with bytes that are not UTF-8 shows them as \xNN, as
-- values and test failures do: decoded, they printed as U+FFFD, the same as
-- a real one (and the escape sequence stays escaped).
local real = "\u{FFFD}"
error("bad \255 and a real " .. real .. " apart \27[2J")
