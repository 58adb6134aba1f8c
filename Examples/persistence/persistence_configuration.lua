-- The Factory Method article, as configurations.
--
-- The article subclasses a DatabaseFactory three times: `app` (SQLite file),
-- `appTests` (same models, in-memory store) and `billingTests` (the Billing
-- model only, in-memory). Here they are three configurations; `app-tests`
-- extends `app` and replaces only the store. The article's dependency-injected
-- variant follows: the model and the store description are registrations of
-- their own, injected into a DatabaseFactory, and the test configurations
-- override just them.
local db = require "factoryhost.persistence"

-- Where `app` keeps its file: a configuration value (main.lua and the specs
-- point it at a scratch file with values { path = … }; $FACTORYHOST_APP_DB or
-- --set path=… win over that).
value "path" { type = "string", default = "app.sqlite", env = "FACTORYHOST_APP_DB" }

local everything = { "Users", "Invoices", "Billing" }

configuration "app" {
  register "PersistentContainer" {
    scope = "singleton",
    deps = { path = value "path" },
    make = function(d)
      return db.PersistentContainer.new {
        models = everything,
        stores = { db.StoreDescription.sqlite { path = d.path, migrateAutomatically = true } },
      }
    end,
  },
}

configuration "app-tests" {
  extends = "app",
  register "PersistentContainer" { scope = "singleton", override = true,
    make = function()
      return db.PersistentContainer.new { models = everything, stores = { db.StoreDescription.inMemory() } }
    end },
}

configuration "billing-tests" {
  register "PersistentContainer" { scope = "singleton",
    make = function()
      return db.PersistentContainer.new { models = { "Billing" }, stores = { db.StoreDescription.inMemory() } }
    end },
}

-- A read-only view of the app's file, for reports.
configuration "reports" {
  register "PersistentContainer" { scope = "singleton", deps = { path = value "path" },
    make = function(d)
      return db.PersistentContainer.new {
        models = everything,
        stores = { db.StoreDescription.sqlite { path = d.path, readOnly = true } },
      }
    end },
}

-- The dependency-injected variant: properties injected, not inherited.
configuration "app-di" {
  register "ManagedObjectModel" { scope = "singleton", make = function() return db.ManagedObjectModel.merged(everything) end },
  register "StoreDescription" { deps = { path = value "path" },
    make = function(d) return db.StoreDescription.sqlite { path = d.path, migrateAutomatically = true } end },
  register "DatabaseFactory" {
    deps = { model = "ManagedObjectModel", store = "StoreDescription" },
    make = function(d) return db.DatabaseFactory.new(d.model, { d.store }) end,
  },
  register "PersistentContainer" {
    scope = "singleton",
    deps = { factory = "DatabaseFactory" },
    make = function(d) return d.factory:makeContainer() end,
  },
}

configuration "app-di-tests" {
  extends = "app-di",
  register "StoreDescription" { override = true, make = function() return db.StoreDescription.inMemory() end },
}

configuration "billing-di-tests" {
  extends = "app-di-tests",
  register "ManagedObjectModel" { scope = "singleton", override = true,
    make = function() return db.ManagedObjectModel.merged { "Billing" } end },
}

