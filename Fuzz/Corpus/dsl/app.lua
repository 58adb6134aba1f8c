-- A small composition root: the movie loaders with a test configuration.
local net = require "factoryhost.networking"
local session = require "factoryhost.session"

scope "session"

configuration "app" {
  register "Cache" { scope = "singleton", make = function() return net.Cache.new() end },
  register "HTTPSession" { scope = "singleton",
    make = function() return net.HTTPSession.new { baseURL = "fixture://movies.example" } end },
  register "MovieLoader" {
    deps = { cache = "Cache", session = "HTTPSession" },
    make = function(d) return net.MovieLoader.new(d.cache, d.session) end,
  },
  register "UserSession" { args = { user = "string" },
    make = function(_, a) return session.UserSession.new { user = a.user } end },
}

configuration "app-tests" {
  extends = "app",
  register "HTTPSession" { scope = "singleton", override = true,
    make = function() return net.HTTPSession.new { baseURL = "fixture://" } end },
  register "AuthRemoteAPI" {
    make = function() return implement("AuthRemoteAPI", {
      signIn = function(self, user) return session.UserSession.new { user = user } end,
    }) end },
  register "SignInViewModel" { deps = { api = "AuthRemoteAPI", makeSession = provider "UserSession" },
    make = function(d) return session.SignInViewModel.new(d.api) end },
}

local loader = resolve "MovieLoader"
print(loader:load(1), loader.fetches)
print(resolve("SignInViewModel"):signIn("ana", "pw"))
