import FactoryRegistry
@testable import FactoryScripting
import LuaBridge

/// A host with the networking and session fixture plugins (Fixtures/), where a test's script is `name.lua`.
func makeHost() throws -> FactoryHost {
    try FactoryHost(plugins: [NetworkingFixturePlugin(), SessionFixturePlugin()])
}

/// The app configuration most tests start from (lines matter: origins are checked).
let appScript = """
    local net = require "factoryhost.networking"
    local session = require "factoryhost.session"
    configuration "app" {
      register "Cache" { scope = "singleton", make = function() return net.Cache.new() end },
      register "HTTPSession" { scope = "singleton",
        make = function() return net.HTTPSession.new { baseURL = "fixture://movies.example" } end },
      register "MovieLoader" {
        deps = { cache = "Cache", session = "HTTPSession" },
        make = function(d) return net.MovieLoader.new(d.cache, d.session) end,
      },
    }
    configuration "app-tests" {
      extends = "app",
      register "HTTPSession" { scope = "singleton", override = true,
        make = function() return net.HTTPSession.new { baseURL = "fixture://" } end },
    }
    """

/// The message of the error `body` throws ("" if it throws none).
func message(_ body: () throws -> Void) -> String {
    do {
        try body()
        return ""
    } catch let error as LuaError {
        return error.message
    } catch {
        return String(describing: error)
    }
}
