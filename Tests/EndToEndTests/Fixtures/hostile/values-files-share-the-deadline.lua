-- command: check
-- args: --timeout 2 --values support/slow_values.lua --values support/slow_values.lua --values support/slow_values.lua --values support/slow_values.lua
-- status: 1
-- stderr: factoryhost: values file support/slow_values.lua: support/slow_values.lua:3: time limit exceeded (0.
-- Values files run within the command's deadline, each with what is left
-- of it: each had its own 2 s (or the whole --timeout), so four 1.5 s
-- files under --timeout 3s ran 5 s and were stopped by the hard stop, which
-- blamed "reading or checking". The third file here is stopped at the 2 s.
configuration "app" {}
