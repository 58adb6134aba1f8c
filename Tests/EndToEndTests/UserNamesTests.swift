import Foundation
import Testing

/// The stock binary's example plugins do not own the type namespace (#36):
/// `User`, `Cache`, `Request`, `Container`, `Scope` are the user's until a
/// script requires the plugin; `plugin.Type` always names the plugin's.
@Suite("Names belong to the user")
struct UserNamesTests {
    @Test func aUsersInterfaceTakesAnExamplesNameUntilThePluginIsRequired() throws {
        let script = """
            interface "User" { "name" }
            interface "Cache" { "get" }
            interface "Container" { "open" }
            interface "Scope" { "close" }
            configuration "app" {
              register "User" { make = function() return { name = function() return "ann" end } end },
              register "Cache" { make = function() return { get = function() return 1 end } end },
            }
            local c = container "app"
            print(c:resolve("User").name(), c:resolve("Cache").get())
            -- The plugin's types are there by their qualified names, and by their plain names once required.
            local net = require "factoryhost.networking"
            configuration "net" {
              register "networking.HTTPSession" { make = function() return net.HTTPSession.new { baseURL = "fixture://x" } end },
              register "DataLoader" { deps = { s = "HTTPSession" }, make = function(d) return net.DataLoader.new(d.s) end },
            }
            print(container("net"):resolve("HTTPSession").baseURL, container("net"):resolve "DataLoader" ~= nil)
            print(c:resolve("Cache").get())   -- still the user's
            """
        let result = try CommandRunner.factoryhost(["run", "-"], input: script)
        #expect(result == ProcessResult(status: 0, stdout: "ann\t1\nfixture://x\ttrue\n1\n", stderr: ""), "\(result)")
        // check sees the same (its declarations only: it stops at the first container).
        let declarations = script.components(separatedBy: "local c = container").first ?? ""
        let check = try CommandRunner.factoryhost(["check", "-"], input: declarations)
        #expect(check == ProcessResult(status: 0, stdout: "ok: 1 configuration, 2 registrations, no problems\n", stderr: ""), "\(check)")
    }

    @Test func aPluginsNameBeforeItsRequireSaysHowToGetIt() throws {
        let result = try CommandRunner.factoryhost(["check", "-"], input: """
            configuration "app" { register "HTTPSession" { make = function() end } }
            """)
        #expect(result == ProcessResult(status: 1, stdout: """
            stdin:1: unknown type 'HTTPSession': it is a type of plugin 'networking' — require "factoryhost.networking" first, or write "networking.HTTPSession" (or declare a type of your own: interface "HTTPSession" { … })
            1 problem in 1 configuration, 0 registrations

            """, stderr: ""), "\(result)")
        // Once required, a user's interface of the same name says where the name went and how to keep both.
        let taken = try CommandRunner.factoryhost(["run", "-"], input: "require 'factoryhost.networking'\ninterface 'Cache' { 'get' }\n")
        #expect(taken.status == 1 && taken.stderr.hasPrefix("""
            factoryhost: stdin:2: interface 'Cache': there is a type 'Cache' already (exported by plugin 'networking'); \
            declare yours before require "factoryhost.networking" (the plugin's is then networking.Cache), or choose another name
            """), "\(taken)")
        // A script's own Cache and the plugin's networking.Cache would both show as 'Cache': refused, whichever comes first.
        let both = try CommandRunner.factoryhost(["check", "-"], input: """
            interface "Cache" { "get" }
            configuration "app" { register "networking.Cache" { make = print } }
            """)
        #expect(both.status == 1 && both.stdout.hasPrefix("""
            stdin:2: 'networking.Cache' and the script's own 'Cache' (interface "Cache" at stdin:1) would both show as 'Cache' \
            in messages and graphs: give the script's interface another name
            """), "\(both)")
        let later = try CommandRunner.factoryhost(["run", "-"], input: """
            configuration "app" { register "networking.Cache" { make = print } }
            interface "Cache" { "get" }
            """)
        #expect(later.status == 1 && later.stderr.contains("interface 'Cache': the script names a plugin's 'Cache' already"), "\(later)")
        // An unknown type lists a few nearest names, never every export.
        let unknown = try CommandRunner.factoryhost(["run", "-"], input: "require 'factoryhost.networking'\nconfiguration 'a' { register 'Zebra' { make = print } }\n")
        #expect(unknown.status == 1 && unknown.stderr.count < 400 && unknown.stderr.contains("unknown type 'Zebra'"), "\(unknown)")
    }
}
