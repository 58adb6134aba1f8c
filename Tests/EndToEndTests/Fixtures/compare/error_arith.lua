local t = {}
print(t.missing + 1)
