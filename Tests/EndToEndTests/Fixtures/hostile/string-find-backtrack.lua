-- args: --timeout 1
-- status: 1
-- stderr: time limit exceeded (1.0 seconds), and the code did not stop within 1 s more
-- A backtracking match: one call of a C builtin that runs for hours.
print(string.find(string.rep("a", 20000), ".-.-.-.-b"))
