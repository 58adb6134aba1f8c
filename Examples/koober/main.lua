-- factoryhost run Examples/koober/main.lua
require "koober_configuration"
local sessionFile = os.tmpname()
os.remove(sessionFile)
values { sessionFile = sessionFile }

-- A launch: a new container (the app starting), its root screen, and the
-- launch screen appearing, which reads the stored session.
local function launch(label)
  local app = container "app"
  local main = app:resolve "MainViewController"
  print(("%s: showing %s"):format(label, tostring(main:update())))
  main.launchViewController:appear()
  print(("  %s, showing %s"):format(main.model.view, tostring(main:update())))
  return app, main
end

-- First launch: no stored session, so onboarding — a screen the main
-- controller made with its factory closure, composed of Welcome, SignIn, SignUp.
local app, main = launch("first launch")
local onboarding = main.child
print("onboarding shows:", onboarding.shown)
onboarding.welcome:tapSignIn()
print("after tapping sign in:", onboarding.shown)

-- The fake remote API (Lua, implementing the Swift protocol) checks the password.
print(onboarding.signIn:signIn("ana", "wrong"))
print(onboarding.signIn:signIn("ana", "password1"))
local signedIn = main:update()             -- made by the (UserSession) -> SignedInViewController closure
print("main shows:", main.model.view, "→", signedIn)

-- A session scope can hold a profile until sign-out.
local sessionScope = app:openScope "session"
local profile = sessionScope:resolve "ProfileViewModel"
print("profile:", profile, "same in the session:", profile == sessionScope:resolve "ProfileViewModel")

-- A restart finds the session the file store kept, as JSON.
launch("second launch")
print("stored:", (io.open(sessionFile):read("a"):gsub("\n$", "")))

-- Signing out deletes it and returns to onboarding: a new onboarding screen.
signedIn:signOut()
sessionScope:close()
print("after sign-out:", profile, "| main shows", tostring(main:update()), "| screens made:", main.childrenMade)
print("history:", table.concat(main.model.history, " → "))
launch("third launch")

-- The keychain-style store, chosen by configuration, keeps a property list.
local secure = container "app-secure"
secure:resolve("SignInViewModel"):signIn("cho", "password1")
print("keychain item:", (secure:resolve("Keychain"):item("com.koober.session"):match("<dict>.*</dict>")))
