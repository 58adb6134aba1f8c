-- factoryhost run --set path=FILE Examples/persistence/reopen.lua
-- A process of its own that opens app's SQLite file and prints its users:
-- what persistence_spec.lua and main.lua start to prove a record survives
-- a restart.
require "persistence_configuration"
local store = container("app"):resolve "PersistentContainer"
for _, user in ipairs(store:fetch "users") do print(user.id, user.name, user.email) end
store:close()
