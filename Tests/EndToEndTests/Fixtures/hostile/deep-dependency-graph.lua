-- command: graph
-- args: --timeout 10
-- status: 0
-- stderr: <none>
-- stdout: └── … deeper than 50 levels (--format dot or json shows every edge)
-- A 20,000-deep dependency chain draws as a tree in linear time and space:
-- drawn recursively with a growing prefix and path it was quadratic (GBs,
-- a SIGABRT under a memory cap); a branch past 50 levels is folded.
local regs = {}
for i = 1, 20000 do
  regs[#regs + 1] = register("table#n" .. i) {
    deps = i < 20000 and { next = "table#n" .. (i + 1) } or {},
    make = function() return {} end,
  }
end
configuration "app" (regs)
