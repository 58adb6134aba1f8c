require "koober_configuration"

-- Each test's session file: a scratch name, given as the sessionFile value.
local sessionFile
local function fresh_file()
  sessionFile = os.tmpname()
  os.remove(sessionFile)
  values { sessionFile = sessionFile }
end

describe("launching", { config = "app" }, function()
  before_each(fresh_file)
  after_each(function() os.remove(sessionFile) end)

  it("goes to onboarding when no session is stored", function(c)
    local main = c:resolve "MainViewController"
    expect(main.model.view):to_be("launching")
    c:resolve("LaunchViewModel"):start()
    expect(main.model.view):to_be("onboarding")
    expect(main:update()):to_be_a("OnboardingViewModel")
    expect(main.childrenMade):to_be(1)
    main:update()
    expect(main.childrenMade):to_be(1)           -- no new screen while the view is the same
  end)

  it("goes straight to the signed-in screen when a session is stored", function(c)
    c:resolve("SignInViewModel"):signIn("ana", "password1")
    local again = container "app"                 -- a restart: a new container, the same file
    again:resolve("LaunchViewModel"):start()
    local main = again:resolve "MainViewController"
    expect(main.model.view):to_be("signed in as ana")
    expect(tostring(main:update())):to_be("ProfileViewModel(ana)")
  end)
end)

describe("onboarding", { config = "app" }, function()
  before_each(fresh_file)
  after_each(function() os.remove(sessionFile) end)

  it("moves from welcome to sign in and sign up", function(c)
    local onboarding = c:resolve "OnboardingViewModel"
    local welcome = c:resolve("WelcomeViewModel", { onboarding = onboarding })
    expect(onboarding.view):to_be("welcome")
    welcome:showSignIn()
    expect(onboarding.view):to_be("sign in")
    onboarding:navigateBack()
    welcome:showSignUp()
    expect(onboarding.view):to_be("sign up")
  end)

  it("signs in through the Lua fake of the remote API", function(c)
    local signIn = c:resolve "SignInViewModel"
    expect(signIn:signIn("ana", "nope")):to_be("failed: wrong password for ana")
    expect(c:resolve("MainViewModel").view):to_be("launching")
    expect(signIn:signIn("ana", "password1")):to_be("signed in as ana")
    expect(c:resolve("MainViewModel").view):to_be("signed in as ana")
    expect(signIn.session.token):to_be("token-ana")
  end)

  it("checks the sign-up form before signing up", function(c)
    local signUp = c:resolve "SignUpViewModel"
    expect(signUp:signUp("", "password1")):to_be("invalid: a user name is required")
    expect(signUp:signUp("ben", "short")):to_be("invalid: the password needs 8 characters or more")
    expect(signUp:signUp("ben", "password1")):to_be("signed up as ben")
  end)
end)

describe("the session", { config = "app" }, function()
  before_each(fresh_file)
  after_each(function() os.remove(sessionFile) end)

  it("lives from sign-in to sign-out", function(c)
    c:resolve("SignInViewModel"):signIn("ana", "password1")
    local session = c:openScope "session"
    local profile = session:resolve "ProfileViewModel"
    expect(session:resolve "ProfileViewModel"):to_be(profile)
    expect(profile.user):to_be("ana")
    c:resolve("UserSessionRepository"):signOut()
    c:resolve("MainViewModel"):signedOut()
    session:close()
    expect(profile.isActive):to_be(false)
    expect(function() session:resolve "ProfileViewModel" end):to_fail("the 'session' scope is closed")
    expect(c:resolve("UserSessionRepository"):readSession()):to_be_nil()
    expect(c:resolve("MainViewModel").history):to_equal({ "launching", "signed in as ana", "onboarding" })
  end)

  it("is needed for a profile", function(c)
    expect(function() c:resolve "ProfileViewModel" end):to_fail("no 'session' scope is open to hold ProfileViewModel")
  end)

  it("keeps one MainViewModel for the whole container", function(c)
    expect(c:resolve "MainViewModel"):to_be(c:resolve("MainViewController").model)
  end)

  it("may not be captured by a singleton (a captive dependency)", function()
    local koober = require "factoryhost.koober"
    configuration "captive" {
      extends = "app",
      register "MainViewModel" { scope = "singleton", override = true, deps = { profile = "ProfileViewModel" },
        make = function() return koober.MainViewModel.new() end },
    }
    local session = container("captive"):openScope "session"
    expect(function() session:resolve "MainViewModel" end):to_fail("captive dependency")
  end)
end)

describe("the stores", function()
  before_each(fresh_file)
  after_each(function() os.remove(sessionFile) end)

  it("write a property list to the file in app", { config = "app" }, function(c)
    c:resolve("SignInViewModel"):signIn("ana", "password1")
    local text = io.open(sessionFile):read("a")
    expect(text):to_contain("<key>user</key><string>ana</string>")
    expect(c:resolve("UserSessionStore").kind):to_be("file " .. sessionFile)
  end)

  it("keep nothing on disk in app-secure", { config = "app-secure" }, function(c)
    c:resolve("SignInViewModel"):signIn("cho", "password1")
    expect(io.open(sessionFile)):to_be_nil()
    expect(c:resolve("UserSessionRepository"):readSession().user):to_be("cho")
    c:resolve("UserSessionRepository"):signOut()
    expect(c:resolve("UserSessionRepository"):readSession()):to_be_nil()
  end)

  it("keep the secure store's session in its own container", { config = "app-secure" }, function(c)
    c:resolve("SignInViewModel"):signIn("cho", "password1")
    expect(c:resolve("Keychain").services):to_equal { "com.koober.session" }
    local other = container "app-secure"
    expect(other:resolve("UserSessionRepository"):readSession()):to_be_nil()
    expect(other:resolve("Keychain").services):to_equal {}
  end)

  it("round-trip awkward text through the coder", function()
    local koober, session = require "factoryhost.koober", require "factoryhost.session"
    local coder = koober.PropertyListCoder.new()
    local decoded = coder:decode(coder:encode(session.UserSession.new { user = "a<b>&c", token = "t" }))
    expect(decoded.user):to_be("a<b>&c")
    expect(function() coder:decode("not a plist") end):to_fail("not a user session property list")
  end)
end)

describe("bad store declarations", function()
  it("are clear errors", function()
    local koober = require "factoryhost.koober"
    expect(function() koober.UserSessionStore.file {} end):to_fail("UserSessionStore.file needs a path (a string)")
    expect(function() koober.UserSessionStore.secure {} end)
      :to_fail("bad argument #1 to 'UserSessionStore.secure' (table { service = \"…\", keychain = k } expected")
    expect(function() koober.UserSessionStore.secure { service = "s" } end)
      :to_fail("UserSessionStore.secure needs a keychain (a Keychain: register one as a singleton, so each container has its own)")
  end)
end)
