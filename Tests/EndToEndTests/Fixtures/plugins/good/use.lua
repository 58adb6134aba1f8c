local c = container "app"
print(c:resolve "Cache#tracking" == c:resolve "Cache#tracking")
