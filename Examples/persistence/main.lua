-- factoryhost run Examples/persistence/main.lua
require "persistence_configuration"
local path = os.tmpname()             -- a scratch SQLite file for this run
values { path = path }

-- A record saved under `app` survives a restart: another process (this
-- program again, arg[-2], running reopen.lua beside this script) opens the
-- same file and finds it.
do
  local store = container("app"):resolve "PersistentContainer"
  print(store)
  store:insert("users", { name = "ana", email = "ana@example.com" })
  store:insert("invoices", { customer = "ana", amount = 42.5 })
  store:close()
end
do
  local function quote(text) return "'" .. text:gsub("'", "'\\''") .. "'" end
  local reopen = (arg[0]:match("^(.*/)") or "./") .. "reopen.lua"
  local pipe = assert(io.popen(("%s run --set path=%s %s"):format(quote(arg[-2]), quote(path), quote(reopen))))
  io.write("after a restart, another process reads: ", pipe:read("a"))
  pipe:close()
end

-- Two app-tests containers never see each other's data.
local a = container("app-tests"):resolve "PersistentContainer"
local b = container("app-tests"):resolve "PersistentContainer"
a:insert("users", { name = "test user" })
print(("app-tests: %d user in one container, %d in the other"):format(a:count "users", b:count "users"))

-- billing-tests has the Billing model only.
local billing = container("billing-tests"):resolve "PersistentContainer"
print("billing-tests tables: " .. table.concat(billing:storedTables(), ", "))
print(select(2, pcall(billing.count, billing, "users")))

-- A read-only store refuses writes.
local reports = container("reports"):resolve "PersistentContainer"
print(("reports: %d invoice, read-only"):format(reports:count "invoices"))
print(select(2, pcall(reports.insert, reports, "invoices", { customer = "eve", amount = 1 })))

-- The injected variant builds the same containers from injected parts.
print(container("billing-di-tests"):resolve "PersistentContainer")

os.remove(path)
