-- The Koober notes' object graph, as configurations.
--
-- KooberObjectFactories was a stateless factory class, so it could not own the
-- long-lived MainViewModel; a container can. Here MainViewModel and the
-- repository are singletons; MainViewController gets the launch screen and
-- two factory closures (providers) that make its later screens — a new
-- OnboardingViewController, composing Welcome, SignIn and SignUp, each time
-- onboarding shows, a SignedInViewController for each session — and Swift
-- checks that each makes what it should. A ProfileViewModel can also live in
-- a `session` scope from sign-in to sign-out.
local koober = require "factoryhost.koober"
local session = require "factoryhost.session"

-- Where the file-based store keeps the session: a configuration value
-- (main.lua and the specs give a scratch file with values { … };
-- $KOOBER_SESSION_FILE or --set sessionFile=… win over that).
value "sessionFile" { type = "string", default = "koober-session.json", env = "KOOBER_SESSION_FILE" }

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
  register "UserSessionStore" { scope = "singleton",          -- file-based, in its own JSON format
    deps = { path = value "sessionFile" },
    make = function(d) return koober.UserSessionStore.file { path = d.path } end },
  register "UserSessionRepository" { scope = "singleton",
    deps = { store = "UserSessionStore", api = "AuthRemoteAPI" },
    make = function(d) return koober.UserSessionRepository.new(d.store, d.api) end },
  register "MainViewModel" { scope = "singleton", make = function() return koober.MainViewModel.new() end },

  -- View models, one per screen that asks.
  register "LaunchViewModel" {
    deps = { repository = "UserSessionRepository", main = "MainViewModel" },
    make = function(d) return koober.LaunchViewModel.new(d.repository, d.main) end },
  register "OnboardingViewModel" { make = function() return koober.OnboardingViewModel.new() end },
  register "WelcomeViewModel" { args = { onboarding = "OnboardingViewModel" },   -- the flow it navigates
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

  -- The screens. makeOnboardingViewController: one onboarding view model
  -- shared by the Welcome screen (which navigates it) and the controller
  -- that composes Welcome, SignIn and SignUp.
  register "LaunchViewController" { deps = { model = "LaunchViewModel" },
    make = function(d) return koober.LaunchViewController.new(d.model) end },
  register "WelcomeViewController" { args = { onboarding = "OnboardingViewModel" },
    deps = { makeModel = provider "WelcomeViewModel" },
    make = function(d, a) return koober.WelcomeViewController.new(d.makeModel { onboarding = a.onboarding }) end },
  register "SignInViewController" { deps = { model = "SignInViewModel" },
    make = function(d) return koober.SignInViewController.new(d.model) end },
  register "SignUpViewController" { deps = { model = "SignUpViewModel" },
    make = function(d) return koober.SignUpViewController.new(d.model) end },
  register "OnboardingViewController" {
    deps = { model = "OnboardingViewModel", makeWelcome = provider "WelcomeViewController",
             signIn = "SignInViewController", signUp = "SignUpViewController" },
    make = function(d)
      return koober.OnboardingViewController.new(d.model, d.makeWelcome { onboarding = d.model }, d.signIn, d.signUp)
    end },
  -- (UserSession) -> SignedInViewController: made for the session signed in.
  register "SignedInViewController" { args = { session = "UserSession" },
    deps = { repository = "UserSessionRepository", main = "MainViewModel" },
    make = function(d, a)
      return koober.SignedInViewController.new(koober.ProfileViewModel.new(a.session), d.repository, d.main)
    end },

  -- The root: given the launch screen and the two factory closures it makes
  -- its later children with (Swift checks what each makes).
  register "MainViewController" {
    deps = { model = "MainViewModel", launch = "LaunchViewController",
             makeOnboarding = provider "OnboardingViewController",
             makeSignedIn = provider "SignedInViewController" },
    make = function(d) return koober.MainViewController.new(d.model, d.launch, d.makeOnboarding, d.makeSignedIn) end },
}

-- The keychain-style store instead of the file, chosen by configuration (the
-- article's makeUserSessionDataStore), with the property-list coder it keeps
-- the session in (makeUserSessionCoder). The keychain is the container's own
-- (a singleton), so one container's session is never another's.
configuration "app-secure" {
  extends = "app",
  register "Keychain" { scope = "singleton", make = function() return koober.Keychain.new() end },
  register "UserSessionPropertyListCoder" { scope = "singleton", make = function() return koober.UserSessionPropertyListCoder.new() end },
  register "UserSessionStore" { scope = "singleton", override = true,
    deps = { keychain = "Keychain", coder = "UserSessionPropertyListCoder" },
    make = function(d)
      return koober.UserSessionStore.secure { service = "com.koober.session", keychain = d.keychain, coder = d.coder }
    end },
}
