-- command: test
-- args: --list
-- status: 0
-- stderr: <none>
-- stdout: list-control-characters.lua:11: d\27[2J > x\27]0;PWN\7\nok 99 - forged [t\27]0;X\7]
-- stdout: 1 test in 1 file
-- `test --list` printed names and tags raw: escape sequences reached the
-- terminal (clearing it, setting its title) and a newline forged a line of
-- its own. Each is escaped, and a test's line stays one line.
describe("d\27[2J", { tags = {"t\27]0;X\7"} }, function()
  it("x\27]0;PWN\7\nok 99 - forged", function() error("e") end)
end)
