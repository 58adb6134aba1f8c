order = order .. " module"
return { loaded = true }
