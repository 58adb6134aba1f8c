-- arg table layout and ... in the main chunk
print("count", select("#", ...))
print("varargs", ...)
print("arg0", arg[0], "#arg", #arg)
for i = 1, #arg do print(i, arg[i]) end
