local require = require              -- the usual idiom: calls keep the name, and are seen
local configuration = configuration
configuration "app" {}
os.execute("true")
print("after the stop")
