-- The starter example: a tiny hand-written composition root in plain Lua.
-- (The registry DSL — configurations, scopes, validation — replaces the
-- hand-wiring below; see the README.)
--
--   factoryhost run Examples/hello/main.lua [name]

local catalog = require "catalog"          -- found beside this script

local function makeLogger(prefix)
  return { log = function(_, msg) print(prefix .. msg) end }
end

-- A loader made per screen: it owns its own request list, so two screens
-- never share state (the point of the movie-loader article).
local function makeLoader(logger, source)
  local pending = {}
  return {
    load = function(_, id)
      pending[#pending + 1] = id
      logger:log(("loading movie %d"):format(id))
      return source[id] or error(("no movie with id %d"):format(id), 2)
    end,
    pending = function() return #pending end,
  }
end

local who = ... or "world"
local logger = makeLogger("[app] ")
local homeScreen, detailScreen = makeLoader(logger, catalog), makeLoader(logger, catalog)

logger:log("hello, " .. who)
print(homeScreen:load(1).title, detailScreen:load(2).title)
print(("home has %d pending, detail has %d: no shared state"):format(homeScreen:pending(), detailScreen:pending()))

local ok, err = pcall(homeScreen.load, homeScreen, 99)
print("bad id ->", err)
