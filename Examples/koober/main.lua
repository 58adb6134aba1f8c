-- factoryhost run Examples/koober/main.lua
require "koober_configuration"
local sessionFile = os.tmpname()
os.remove(sessionFile)
values { sessionFile = sessionFile }

local function launch(label)
  local app = container "app"
  local main = app:resolve "MainViewController"
  app:resolve("LaunchViewModel"):start()
  print(("%s: %s, showing %s"):format(label, main.model.view, tostring(main:update())))
  return app, main
end

-- First launch: no stored session, so onboarding (made by the injected factory closure).
local app, main = launch("first launch")
local onboarding = main.child
app:resolve("WelcomeViewModel", { onboarding = onboarding }):showSignIn()
print("onboarding shows:", onboarding.view)

-- The fake remote API (Lua, implementing the Swift protocol) checks the password.
local signIn = app:resolve "SignInViewModel"
print(signIn:signIn("ana", "wrong"))
print(signIn:signIn("ana", "password1"))
print("main shows:", main.model.view, "→", main:update())

-- Signed in: the session scope holds the profile until sign-out.
local sessionScope = app:openScope "session"
local profile = sessionScope:resolve "ProfileViewModel"
print("profile:", profile, "same in the session:", profile == sessionScope:resolve "ProfileViewModel")

-- A restart finds the session the file store kept, as a property list.
launch("second launch")
print("stored:", (io.open(sessionFile):read("a"):match("<dict>.*</dict>")))

-- Signing out deletes it, ends the session scope and returns to onboarding.
app:resolve("UserSessionRepository"):signOut()
main.model:signedOut()
sessionScope:close()
print("after sign-out:", profile, "| main shows", tostring(main:update()))
print("history:", table.concat(main.model.history, " → "))
launch("third launch")
