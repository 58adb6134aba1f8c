-- The Factory Method article, as configurations.
--
-- The article subclasses a DatabaseFactory: `app` gives its two properties,
-- the entity models (Users, Invoices, Billing) and the store descriptions (a
-- SQLite file); `appTests` overrides only the store descriptions (in memory)
-- and inherits the models (`super.entitiesModels`); `billingTests` has the
-- Billing model only, in memory. Here the properties are the registration's
-- parameters: a configuration that extends `app` changes one of them and
-- inherits the rest — the factory, its scope, its dependencies, the other
-- parameter. The article's dependency-injected variant follows.
local db = require "factoryhost.persistence"

-- Where `app` keeps its file: a configuration value (main.lua and the specs
-- point it at a scratch file with values { path = … }; $FACTORYHOST_APP_DB or
-- --set path=… win over that).
value "path" { type = "string", default = "app.sqlite", env = "FACTORYHOST_APP_DB" }

configuration "app" {
  register "PersistentContainer" {
    scope = "singleton",
    deps = { path = value "path" },
    -- The DatabaseFactory's properties, which `make` reads from `d`.
    params = {
      entitiesModels = { "Users", "Invoices", "Billing" },
      persistentStoreDescriptions = function(d)
        return { db.StoreDescription.sqlite { path = d.path, migrateAutomatically = true } }
      end,
    },
    -- makePersistentContainer(): the models merged, the stores opened.
    make = function(d)
      return db.PersistentContainer.new { models = d.entitiesModels, stores = d.persistentStoreDescriptions(d) }
    end,
  },
}

-- Only what differs: the store. The models are app's.
configuration "app-tests" {
  extends = "app",
  register "PersistentContainer" { override = true,
    params = { persistentStoreDescriptions = function() return { db.StoreDescription.inMemory() } end } },
}

-- Only what differs from app-tests: the models.
configuration "billing-tests" {
  extends = "app-tests",
  register "PersistentContainer" { override = true, params = { entitiesModels = { "Billing" } } },
}

-- A read-only view of the app's file, for reports: only the store differs.
configuration "reports" {
  extends = "app",
  register "PersistentContainer" { override = true,
    params = { persistentStoreDescriptions = function(d) return { db.StoreDescription.sqlite { path = d.path, readOnly = true } } end } },
}

-- The dependency-injected variant: properties injected, not inherited.
configuration "app-di" {
  register "ManagedObjectModel" { scope = "singleton", make = function() return db.ManagedObjectModel.merged { "Users", "Invoices", "Billing" } end },
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

