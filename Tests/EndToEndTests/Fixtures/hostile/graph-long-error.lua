-- command: graph
-- status: 1
-- stderr: AAA\27[2J
-- output under: 6000
-- graph reports a script's error bounded and escaped, as run and check do:
-- it printed a 10 MB error whole, with its escape sequence raw.
error(string.rep("A", 10 * 1024 * 1024) .. "\27[2J")
