local t = { configuration }      -- attack 13: kept before the stop, called after it
os.execute("true")
t[1] "late" { }
