-- args: --timeout 1
-- status: 1
-- stderr: time limit exceeded (1.0 seconds), and the code did not stop within 1 s more
-- One C builtin call that loops 2^53 times.
table.move({}, 1, 2^53, 1)
