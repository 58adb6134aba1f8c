-- args: --timeout 1
-- status: 1
-- stderr: string-rep-loop.lua:5: time limit exceeded (1.0 seconds)
-- Long C builtin calls in a loop: the stop comes at the next one's return, not 80x late.
while true do local s = string.rep("x", 100 * 1024 * 1024) end
