io.stderr:write("to stderr\n")
local line = io.read("l")
print("read:", line)
print("rest:", io.read("a"))
