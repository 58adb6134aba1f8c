require "persistence_configuration"

local function scratch_file()
  local path = os.tmpname()
  os.remove(path)                 -- let SQLite create it
  return path
end

-- Runs factoryhost (arg[-2]: the program running this spec) in a process of
-- its own, with a script beside this spec; returns what it printed.
local here = arg[0]:match("^(.*/)") or "./"
local function shell_quote(text) return "'" .. text:gsub("'", "'\\''") .. "'" end
local function factoryhost(...)
  local words = { shell_quote(arg[-2]) }
  for _, word in ipairs { ... } do words[#words + 1] = shell_quote(word) end
  local pipe = assert(io.popen(table.concat(words, " ") .. " 2>&1"))
  local output = pipe:read("a")
  local ok, _, status = pipe:close()
  return output, ok and 0 or status
end

describe("app (a SQLite file)", { config = "app" }, function()
  local path
  before_each(function() path = scratch_file(); values { path = path } end)
  after_each(function() os.remove(path) end)

  it("keeps a record across a restart: another process reads it", function(c)
    local store = c:resolve "PersistentContainer"
    local id = store:insert("users", { name = "ana", email = "ana@example.com" })
    expect(id):to_be(1)
    store:close()
    local output, status = factoryhost("run", "--set", "path=" .. path, here .. "reopen.lua")
    expect(output):to_be("1\tana\tana@example.com\n")
    expect(status):to_be(0)
    -- And back: what that process writes, this one reads.
    expect(factoryhost("run", "--set", "path=" .. path, "-e",
      "require 'persistence_configuration' container('app'):resolve('PersistentContainer'):insert('users', { name = 'ben' })",
      here .. "reopen.lua")):to_be("1\tana\tana@example.com\n2\tben\tnil\n")
    local reopened = container("app"):resolve "PersistentContainer"
    expect(reopened:count "users"):to_be(2)
    reopened:close()
  end)

  it("is one store per container (a singleton)", function(c)
    expect(c:resolve "PersistentContainer"):to_be(c:resolve "PersistentContainer")
  end)

  it("has every model's tables", function(c)
    expect(c:resolve("PersistentContainer"):storedTables()):to_equal({ "invoices", "payments", "users" })
  end)

  it("checks entities and attributes", function(c)
    local store = c:resolve "PersistentContainer"
    expect(function() store:insert("customers", {}) end):to_fail("no entity 'customers' in this model")
    expect(function() store:insert("users", { nickname = "x" }) end)
      :to_fail("entity 'users' has no attribute 'nickname' (attributes: name, email)")
    expect(function() store:insert("users", { email = "no name" }) end):to_fail("NOT NULL constraint failed: users.name")
  end)
end)

describe("app-tests (in memory)", { config = "app-tests" }, function()
  it("starts empty in every test", function(c)
    local store = c:resolve "PersistentContainer"
    expect(store:count "users"):to_be(0)
    store:insert("users", { name = "leaks?" })
  end)

  it("still starts empty (the last test's row is gone)", function(c)
    expect(c:resolve("PersistentContainer"):count "users"):to_be(0)
  end)

  it("never shares data between two containers", function()
    local a = container("app-tests"):resolve "PersistentContainer"
    local b = container("app-tests"):resolve "PersistentContainer"
    a:insert("invoices", { customer = "ana", amount = 10 })
    expect(a:count "invoices"):to_be(1)
    expect(b:count "invoices"):to_be(0)
  end)

  it("keeps app's models (it overrides only the store)", function(c)
    local store = c:resolve "PersistentContainer"
    expect(store.model.names):to_equal({ "Users", "Invoices", "Billing" })
    expect(store.store.path):to_be_nil()
  end)

  it("says only what differs: app's registration, its store parameter changed", function()
    -- The graph shows where each parameter was changed; a whole registration
    -- re-declared in app-tests would show none, and its own line.
    local graph = factoryhost("graph", "--config", "app-tests", here .. "persistence_configuration.lua")
    local line = graph:match("^PersistentContainer [^\n]*")
    expect(line):to_match("params%(entitiesModels: table; persistentStoreDescriptions: function, changed at .-persistence_configuration.lua:%d+%)")
    local app = factoryhost("graph", "--config", "app", here .. "persistence_configuration.lua"):match("^PersistentContainer [^\n]*")
    expect(app):to_match("params%(entitiesModels: table; persistentStoreDescriptions: function%)")
    expect(line:match("%S+$")):to_be(app:match("%S+$"))          -- declared once, in app
  end)
end)

describe("billing-tests", { config = "billing-tests" }, function()
  it("changes only the models of app-tests (the store stays in memory)", function(c)
    local store = c:resolve "PersistentContainer"
    expect(store.model.names):to_equal({ "Billing" })
    expect(store.store.path):to_be_nil()
  end)

  it("has the Billing model only: no users table", function(c)
    local store = c:resolve "PersistentContainer"
    expect(store:storedTables()):to_equal({ "payments" })
    expect(function() store:count "users" end):to_fail("no entity 'users' in this model (Billing: entities payments)")
    expect(store:insert("payments", { invoice = 1, amount = 9.99 })):to_be(1)
  end)
end)

describe("a read-only store", function()
  local path
  before_each(function() path = scratch_file(); values { path = path } end)
  after_each(function() os.remove(path) end)

  it("refuses writes with a clear error", function()
    local writer = container("app"):resolve "PersistentContainer"
    writer:insert("invoices", { customer = "ana", amount = 1 })
    writer:close()
    local reader = container("reports"):resolve "PersistentContainer"
    expect(reader:count "invoices"):to_be(1)
    expect(function() reader:insert("invoices", { customer = "eve", amount = 2 }) end)
      :to_fail("the store '" .. path .. "' is read-only: cannot insert into invoices")
  end)

  it("cannot be created: a missing file is an error, not an empty store", function()
    expect(function() container("reports"):resolve "PersistentContainer" end)
      :to_fail("cannot open the store '" .. path .. "': unable to open database file")
  end)
end)

describe("the injected variant", function()
  it("builds app-di-tests from the injected model and an in-memory store", { config = "app-di-tests" }, function(c)
    local store = c:resolve "PersistentContainer"
    expect(store.store.path):to_be_nil()
    expect(store:storedTables()):to_equal({ "invoices", "payments", "users" })
  end)

  it("overrides only the model for billing-di-tests", { config = "billing-di-tests" }, function(c)
    expect(c:resolve("PersistentContainer"):storedTables()):to_equal({ "payments" })
  end)
end)

describe("bad store and model declarations", function()
  local db = require "factoryhost.persistence"
  it("are clear errors", function()
    expect(function() db.StoreDescription.sqlite {} end):to_fail("StoreDescription.sqlite needs a path (a non-empty string)")
    expect(function() db.StoreDescription.sqlite { pth = "x" } end)
      :to_fail('StoreDescription.sqlite has no option "pth" (options: path, readOnly, migrateAutomatically)')
    expect(function() db.StoreDescription.sqlite "x.db" end)
      :to_fail("bad argument #1 to 'StoreDescription.sqlite' (table { path = …, readOnly = …, migrateAutomatically = … } expected, got string)")
    expect(function() db.ManagedObjectModel.merged { "Nope" } end):to_fail("no entity model named 'Nope' (models: Billing, Invoices, Users)")
    expect(function() db.ManagedObjectModel.merged {} end):to_fail("a model needs at least one module")
    expect(function() db.PersistentContainer.new { models = { "Users" }, stores = {} } end)
      :to_fail("PersistentContainer: give exactly one store description (got 0)")
  end)
end)
