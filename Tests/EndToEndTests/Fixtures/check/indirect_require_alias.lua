local req = require
os.execute("true")
req "subconf"
