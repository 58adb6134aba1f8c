print("before")
error("no position", 0)
