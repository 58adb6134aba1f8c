-- The common xpcall(main, handler) pattern: check must not run the failure path.
configuration "app" { register "table#x" { make = function() return {} end } }
local function main() return container("app"):resolve "table#x" end
xpcall(main, function()
  os.remove(arg[1] or "victim.txt")
  io.open("written.txt", "w")
  os.exit(2)
end)
xpcall(main, os.exit)
print(coroutine.wrap(function() return pcall(container, "app") end)())
