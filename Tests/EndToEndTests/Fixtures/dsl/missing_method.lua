require "factoryhost.session" local fake = { signUp = function() end }
configuration "app-tests" {
  register "AuthRemoteAPI" { make = function() return implement("AuthRemoteAPI", fake) end },
}
container("app-tests"):resolve "AuthRemoteAPI"
