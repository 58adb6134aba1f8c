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

  it("shows the launch screen, then onboarding when no session is stored", function(c)
    local main = c:resolve "MainViewController"
    expect(main.model.view):to_be("launching")
    expect(main:update()):to_be(main.launchViewController)
    main.launchViewController:appear()
    expect(main.model.view):to_be("onboarding")
    expect(main:update()):to_be_a("OnboardingViewController")
    expect(main.childrenMade):to_be(1)
    main:update()
    expect(main.childrenMade):to_be(1)           -- no new screen while the view is the same
  end)

  it("goes straight to the signed-in screen when a session is stored", function(c)
    c:resolve("SignInViewModel"):signIn("ana", "password1")
    local again = container "app"                 -- a restart: a new container, the same file
    local main = again:resolve "MainViewController"
    main.launchViewController:appear()
    expect(main.model.view):to_be("signed in as ana")
    expect(tostring(main:update())):to_be("SignedInViewController(ana)")
  end)
end)

-- The article's point: MainViewController makes its later screens with the
-- factory closures it was given — () -> OnboardingViewController, composed
-- of Welcome, SignIn and SignUp, and (UserSession) -> SignedInViewController.
describe("the screens, through the factory closures", { config = "app" }, function()
  before_each(fresh_file)
  after_each(function() os.remove(sessionFile) end)

  it("walk launch → onboarding → signed in → signed out", function(c)
    local main = c:resolve "MainViewController"
    expect(main:update()):to_be(main.launchViewController)
    main.launchViewController:appear()

    local onboarding = main:update()
    expect(onboarding):to_be_a("OnboardingViewController")
    expect(onboarding.welcome):to_be_a("WelcomeViewController")
    expect(onboarding.signIn):to_be_a("SignInViewController")
    expect(onboarding.signUp):to_be_a("SignUpViewController")
    expect(onboarding.shown):to_be(onboarding.welcome)
    onboarding.welcome:tapSignUp()
    expect(onboarding.shown):to_be(onboarding.signUp)
    onboarding.viewModel:navigateBack()
    onboarding.welcome:tapSignIn()                -- the welcome screen moves this onboarding's flow
    expect(onboarding.shown):to_be(onboarding.signIn)
    expect(onboarding.signIn:signIn("ana", "nope")):to_be("failed: wrong password for ana")
    expect(main:update()):to_be(onboarding)
    expect(onboarding.signIn:signIn("ana", "password1")):to_be("signed in as ana")

    local signedIn = main:update()
    expect(signedIn):to_be_a("SignedInViewController")
    expect(signedIn.user):to_be("ana")
    expect(c:resolve("UserSessionRepository"):readSession().user):to_be("ana")
    signedIn:signOut()
    expect(c:resolve("UserSessionRepository"):readSession()):to_be_nil()

    local again = main:update()                   -- a new onboarding screen, from the closure
    expect(again):to_be_a("OnboardingViewController")
    expect(again == onboarding):to_be(false)
    expect(again.shown):to_be(again.welcome)
    expect(main.childrenMade):to_be(3)
    expect(main.model.history):to_equal({ "launching", "onboarding", "signed in as ana", "onboarding" })
  end)

  it("signs up through the sign-up child", function(c)
    local main = c:resolve "MainViewController"
    main.launchViewController:appear()
    local onboarding = main:update()
    onboarding.welcome:tapSignUp()
    expect(onboarding.shown:signUp("ben", "short")):to_be("invalid: the password needs 8 characters or more")
    expect(onboarding.shown:signUp("ben", "password1")):to_be("signed up as ben")
    expect(tostring(main:update())):to_be("SignedInViewController(ben)")
  end)

  it("are checked by Swift: a closure that makes something else is an error", function(c)
    local koober = require "factoryhost.koober"
    local main = koober.MainViewController.new(c:resolve "MainViewModel", c:resolve "LaunchViewController",
      function() return "not a screen" end, function() end)
    main.launchViewController:appear()
    expect(function() main:update() end)
      :to_fail("the factory closure 'makeOnboarding' made a string (\"not a screen\"), not an OnboardingViewController")
    local wrongKind = koober.MainViewController.new(c:resolve "MainViewModel", c:resolve "LaunchViewController",
      function() return c:resolve "OnboardingViewModel" end, function() end)
    expect(function() wrongKind:update() end)
      :to_fail("the factory closure 'makeOnboarding' made an OnboardingViewModel, not an OnboardingViewController")
    expect(function() koober.MainViewController.new(c:resolve "MainViewModel", c:resolve "LaunchViewController", "x", "y") end)
      :to_fail("bad argument #3 to 'MainViewController.new' (function (factory closure 'makeOnboarding' making an OnboardingViewController) expected, got string)")
  end)

  it("are checked when a configuration's provider makes the wrong thing", function()
    local koober = require "factoryhost.koober"
    configuration "wrong-screens" {
      extends = "app",
      -- A registration named for its type is checked by the container itself...
      register "SignedInViewController" { override = true, args = { session = "UserSession" },
        make = function(_, a) return koober.ProfileViewModel.new(a.session) end },
      -- ...one of another type, by the closure that hands it to Swift.
      register "string#onboardingScreen" { make = function() return "a screen, honestly" end },
      register "MainViewController" { override = true,
        deps = { model = "MainViewModel", launch = "LaunchViewController",
                 makeOnboarding = provider "string#onboardingScreen", makeSignedIn = provider "SignedInViewController" },
        make = function(d) return koober.MainViewController.new(d.model, d.launch, d.makeOnboarding, d.makeSignedIn) end },
    }
    local c = container "wrong-screens"
    local main = c:resolve "MainViewController"
    main.launchViewController:appear()
    expect(function() main:update() end)
      :to_fail("the factory closure 'makeOnboarding' made a string (\"a screen, honestly\"), not an OnboardingViewController")
    c:resolve("SignInViewModel"):signIn("ana", "password1")
    expect(function() main:update() end)
      :to_fail("the factory for SignedInViewController returned a ProfileViewModel, expected SignedInViewController")
  end)

  it("make screens; presenting stays the main controller's (found by attack)", function(c)
    local koober, session = require "factoryhost.koober", require "factoryhost.session"
    local model = koober.MainViewModel.new()
    local main, reenter
    main = koober.MainViewController.new(model, c:resolve "LaunchViewController",
      function()
        model:signedIn(session.UserSession.new { user = "zed", token = "t" })   -- the view moves on meanwhile
        if reenter then main:update() end
        return c:resolve "OnboardingViewController"
      end,
      function(a) return c:resolve("SignedInViewController", a) end)
    model:notSignedIn()
    reenter = true
    expect(function() main:update() end)
      :to_fail("MainViewController: update() was called again while a factory closure was making a screen")
    reenter = false
    model:notSignedIn()
    expect(main:update()):to_be_a("OnboardingViewController")   -- made for the view it was asked for...
    expect(tostring(main:update())):to_be("SignedInViewController(zed)")   -- ...and the next update follows the view
  end)

  it("compose an onboarding screen from one flow only", function(c)
    local koober = require "factoryhost.koober"
    local welcome = c:resolve("WelcomeViewController", { onboarding = c:resolve "OnboardingViewModel" })
    expect(function()
      koober.OnboardingViewController.new(c:resolve "OnboardingViewModel", welcome, c:resolve "SignInViewController",
                                          c:resolve "SignUpViewController")
    end):to_fail("the welcome screen given to an OnboardingViewController moves another OnboardingViewModel")
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

  it("asks the remote API with what the user typed (a stub stands in for it)", function(c)
    -- This test's container gets a strict stub instead of the Lua fake: it
    -- records the call and fails on any method it was not given.
    local session = require "factoryhost.session"
    local api = stub.strict "AuthRemoteAPI" {
      signIn = function(_, user) return session.UserSession.new { user = user, token = "stubbed" } end,
    }
    override "AuthRemoteAPI" { scope = "singleton", make = function() return api end }
    expect(c:resolve("SignInViewModel"):signIn("ana", "any password")):to_be("signed in as ana")
    expect(api.signIn):to_have_been_called_with("ana", "any password")
    expect(api.signIn):to_have_been_called_times(1)
    expect(c:resolve("MainViewModel").view):to_be("signed in as ana")
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

  it("write the session as JSON to the file in app", { config = "app" }, function(c)
    c:resolve("SignInViewModel"):signIn("ana", "password1")
    local text = io.open(sessionFile):read("a")
    expect(text):to_be('{"user":"ana","token":"token-ana"}\n')
    expect(c:resolve("UserSessionStore").kind):to_be("file " .. sessionFile)
  end)

  it("keep the session in the keychain as the coder's property list in app-secure", { config = "app-secure" }, function(c)
    c:resolve("SignInViewModel"):signIn("cho", "password1")
    expect(c:resolve("Keychain"):item("com.koober.session")):to_contain("<key>user</key><string>cho</string>")
    expect(c:resolve("UserSessionRepository"):readSession().token):to_be("token-cho")
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
    local coder = koober.UserSessionPropertyListCoder.new()
    local decoded = coder:decode(coder:encode(session.UserSession.new { user = "a<b>&c", token = "t" }))
    expect(decoded.user):to_be("a<b>&c")
    expect(function() coder:decode("not a plist") end):to_fail("not a user session property list")
  end)

  it("round-trip awkward text through the file's JSON and refuse what is not a session", function()
    local koober, session = require "factoryhost.koober", require "factoryhost.session"
    local store = koober.UserSessionStore.file { path = sessionFile }
    local awkward = 'quote " slash \\ line\nbreak tab\t bell\a é 😀'
    store:save(session.UserSession.new { user = awkward, token = "t" })
    expect(store:read().user):to_be(awkward)
    for text, reason in pairs {
      ["not json"] = "'n' where '{' belongs",
      ['{"user": 1}'] = 'the value of "user" is not a string',
      ['{"token":"t"}'] = 'it has no "user"',
      ['{"user":"a"} x'] = "more follows the object",
      ['{"user":"a\\q"}'] = "an unknown escape \\q",
      ['{"user":"\\ud800"}'] = "half of a surrogate pair",
      ['{"user":"a'] = "a string that does not end",
    } do
      local file = assert(io.open(sessionFile, "w")); file:write(text); file:close()
      expect(function() store:read() end):to_fail("session file " .. sessionFile .. ": not a saved session (JSON): " .. reason)
    end
  end)
end)

describe("a file store that cannot do its job", function()
  before_each(fresh_file)
  after_each(function() os.remove(sessionFile) end)

  -- Found by attack: each of these was silent before.
  it("says so rather than reading as signed out or writing elsewhere", function()
    local koober, session = require "factoryhost.koober", require "factoryhost.session"
    local here = koober.UserSessionStore.file { path = "." }
    expect(function() here:read() end):to_fail("cannot read the session from .: Is a directory")
    expect(function() koober.UserSessionStore.file { path = "a\0b" } end)
      :to_fail("UserSessionStore.file: the path must be UTF-8 text without NUL bytes")
    expect(function() koober.UserSessionStore.file { path = "bad\255name" } end)
      :to_fail("UserSessionStore.file: the path must be UTF-8 text without NUL bytes")
    local file = assert(io.open(sessionFile, "w")); file:write('{"user":"a\255b"}'); file:close()
    local store = koober.UserSessionStore.file { path = sessionFile }
    expect(function() store:read() end):to_fail("not a saved session (JSON): it is not UTF-8 text")
    file = assert(io.open(sessionFile, "w")); file:write('\239\187\191{"user":"a"}'); file:close()
    expect(function() store:read() end):to_fail("not a saved session (JSON): U+FEFF where '{' belongs")
    os.remove(sessionFile)
    expect(store:read()):to_be_nil()                               -- no file: not signed in
    store:save(session.UserSession.new { user = "ana", token = "t" })
    os.remove(sessionFile)
    expect(function() koober.UserSessionStore.file { path = "/" }:delete() end)
      :to_fail("cannot delete the session file /: ")
    local ana = session.UserSession.new { user = "ana", token = "t" }
    expect(function() koober.UserSessionStore.file { path = "/" }:save(ana) end)
      :to_fail("cannot write the session to /: Is a directory")
    if io.open("/dev/full") then                                   -- Linux's always-full device
      expect(function() koober.UserSessionStore.file { path = "/dev/full" }:save(ana) end)
        :to_fail("cannot write the session to /dev/full: No space left on device")
    end
  end)
end)

describe("bad store declarations", function()
  it("are clear errors", function()
    local koober = require "factoryhost.koober"
    expect(function() koober.UserSessionStore.file {} end):to_fail("UserSessionStore.file needs a path (a string)")
    expect(function() koober.UserSessionStore.file { path = "p", coder = koober.UserSessionPropertyListCoder.new() } end)
      :to_fail("UserSessionStore.file takes no coder: a file store keeps its own format (JSON); "
               .. "the property-list coder belongs to UserSessionStore.secure")
    expect(function() koober.UserSessionStore.secure "s" end)
      :to_fail("bad argument #1 to 'UserSessionStore.secure' (table { service = \"…\", keychain = k, coder = c } expected, got string)")
    expect(function() koober.UserSessionStore.secure {} end)
      :to_fail("UserSessionStore.secure needs a service (a string), got nil")
    expect(function() koober.UserSessionStore.secure { service = "s" } end)
      :to_fail("UserSessionStore.secure needs a keychain (a Keychain: register one as a singleton, so each container has its own)")
    expect(function() koober.UserSessionStore.secure { service = 5 } end)
      :to_fail("UserSessionStore.secure needs a service (a string), got integer")
    expect(function() koober.UserSessionStore.secure { service = "s", keychain = "k" } end)
      :to_fail("UserSessionStore.secure: keychain must be a Keychain, got string")
    expect(function() koober.UserSessionStore.secure { service = "s", keychain = koober.Keychain.new(), coder = false } end)
      :to_fail("UserSessionStore.secure: coder must be a UserSessionPropertyListCoder, got boolean")
    expect(function() koober.UserSessionStore.secure { service = "s", keychain = koober.Keychain.new() } end)
      :to_fail("UserSessionStore.secure needs a coder (a UserSessionPropertyListCoder): the keychain keeps the session as the property list it writes")
  end)
end)
