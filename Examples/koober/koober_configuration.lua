-- The Koober notes' object graph, as configurations.
--
-- KooberObjectFactories was a stateless factory class, so it could not own the
-- long-lived MainViewModel; a container can. Here MainViewModel and the
-- repository are singletons, screens are made on demand through providers
-- (the factory closures Koober hands to MainViewController), and the signed-in
-- user's ProfileViewModel lives in a `session` scope from sign-in to sign-out.
local koober = require "factoryhost.koober"
local session = require "factoryhost.session"

-- Where the file-based store keeps the session: a configuration value
-- (main.lua and the specs give a scratch file with values { … };
-- $KOOBER_SESSION_FILE or --set sessionFile=… win over that).
value "sessionFile" { type = "string", default = "koober-session.plist", env = "KOOBER_SESSION_FILE" }

-- A fake remote API written in Lua, implementing the Swift AuthRemoteAPI protocol.
local function fakeAuth()
  return implement("AuthRemoteAPI", {
    signIn = function(_, user, password)
      if password ~= "password1" then error("wrong password for " .. user, 0) end
      return session.UserSession.new { user = user, token = "token-" .. user }
    end,
  })
end

scope "session"

configuration "app" {
  register "AuthRemoteAPI" { scope = "singleton", make = fakeAuth },
  register "PropertyListCoder" { scope = "singleton", make = function() return koober.PropertyListCoder.new() end },
  register "UserSessionStore" { scope = "singleton",          -- file-based, with a property-list coder
    deps = { coder = "PropertyListCoder", path = value "sessionFile" },
    make = function(d) return koober.UserSessionStore.file { path = d.path, coder = d.coder } end },
  register "UserSessionRepository" { scope = "singleton",
    deps = { store = "UserSessionStore", api = "AuthRemoteAPI" },
    make = function(d) return koober.UserSessionRepository.new(d.store, d.api) end },
  register "MainViewModel" { scope = "singleton", make = function() return koober.MainViewModel.new() end },

  register "LaunchViewModel" {
    deps = { repository = "UserSessionRepository", main = "MainViewModel" },
    make = function(d) return koober.LaunchViewModel.new(d.repository, d.main) end },
  register "OnboardingViewModel" { make = function() return koober.OnboardingViewModel.new() end },
  register "WelcomeViewModel" { args = { onboarding = "OnboardingViewModel" },
    make = function(_, a) return koober.WelcomeViewModel.new(a.onboarding) end },
  register "SignInViewModel" {
    deps = { repository = "UserSessionRepository", main = "MainViewModel" },
    make = function(d) return session.SignInViewModel.new(d.repository, d.main) end },
  register "SignUpViewModel" {
    deps = { repository = "UserSessionRepository", main = "MainViewModel" },
    make = function(d) return koober.SignUpViewModel.new(d.repository, d.main) end },

  -- One profile per signed-in session (it may depend on longer-lived things, never the reverse).
  register "ProfileViewModel" { scope = "session", deps = { main = "MainViewModel" },
    make = function(d) return koober.ProfileViewModel.new(d.main.session) end },
  -- The signed-in screen, made by MainViewController's factory closure for a given session.
  register "ProfileViewModel#screen" { args = { session = "UserSession" },
    make = function(_, a) return koober.ProfileViewModel.new(a.session) end },

  register "MainViewController" {
    deps = { model = "MainViewModel",
             makeOnboarding = provider "OnboardingViewModel",
             makeSignedIn = provider "ProfileViewModel#screen" },
    make = function(d) return koober.MainViewController.new(d.model, d.makeOnboarding, d.makeSignedIn) end },
}

-- The secure store instead of the file, chosen by configuration. The
-- keychain is the container's own (a singleton), so one container's session
-- is never another's.
configuration "app-secure" {
  extends = "app",
  register "Keychain" { scope = "singleton", make = function() return koober.Keychain.new() end },
  register "UserSessionStore" { scope = "singleton", override = true, deps = { keychain = "Keychain" },
    make = function(d) return koober.UserSessionStore.secure { service = "com.koober.session", keychain = d.keychain } end },
}

