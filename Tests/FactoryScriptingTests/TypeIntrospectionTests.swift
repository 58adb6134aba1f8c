@testable import FactoryScripting
import LuaBridge
import Testing

/// `types()` and `describe "Name"`: what scripts (and the REPL, and editor
/// support) can learn of the types they may name.
@Suite("types() and describe() tell what each type offers")
struct TypeIntrospectionTests {
    @Test func typesListsExportedTypesSortedWithoutPrimitives() throws {
        let host = try makeHost()
        let result = try host.run("""
            local names = types()
            local seen, sorted = {}, true
            for i, name in ipairs(names) do
              seen[name] = true
              if i > 1 and names[i - 1] >= name then sorted = false end
            end
            return seen.Cache == true, seen.AuthRemoteAPI == true, seen.table == nil, seen.integer == nil, sorted
            """, name: "types.lua")
        #expect(result == [true, true, true, true, true])
    }

    @Test func describeGivesSignaturesPropertiesAndInterfaces() throws {
        let host = try makeHost()
        let result = try host.run("""
            local d = describe "MovieLoader"
            local i = describe "AuthRemoteAPI"
            local c = describe "Cache"
            return d.kind, d.plugin, table.concat(d.new, ","), table.concat(d.methods.load.args, ","), d.methods.load.result,
                   d.methods.cancelAll.result == nil, #d.methods.cancelAll.args, d.properties.fetches.type,
                   i.kind, i.methods.signIn ~= nil, i.new == nil, c.new ~= nil, describe("table").kind, describe("table").methods == nil
            """, name: "describe.lua")
        #expect(result == ["class", "networking", "Cache,HTTPSession", "integer", "string", true, 0, "integer",
                           "interface", true, true, true, "primitive", true])
    }

    /// A constructor or method that reads its own arguments says so (no
    /// `args`, `new = true`) rather than claiming it takes nothing.
    @Test func frameReadingFunctionsHaveNoArgumentList() throws {
        let host = try makeHost()
        let members = try #require(host.types.members(ofClass: "SignInViewModel"))
        let result = try host.run("""
            local d = describe "SignInViewModel"
            local unknown = {}
            for name, m in pairs(d.methods) do if m.args == nil then unknown[#unknown + 1] = name end end
            return type(d.new), #unknown
            """, name: "frame.lua")
        let constructorType = members.constructorArguments == nil ? "boolean" : "table"
        let frameMethods = members.methods.filter { members.signatures[$0] == nil }.count
        #expect(result == [.string(LuaString(constructorType)), .integer(frameMethods)])
    }

    @Test func badNamesAreErrorsThatSayWhatWasMeant() throws {
        let host = try makeHost()
        let result = try host.run("""
            local ok1, e1 = pcall(describe, "Cahce")
            local ok2, e2 = pcall(describe)
            local ok3, e3 = pcall(describe, {})
            return ok1, e1, ok2, e2, ok3, e3
            """, name: "bad.lua")
        #expect(result.count == 6)
        #expect(result[0] == false && result[2] == false && result[4] == false)
        #expect((try? result[1].string())?.hasPrefix("unknown type 'Cahce', did you mean 'Cache'?") == true, "\(result[1])")
        #expect((try? result[3].string())?.contains("bad argument #1 to 'describe' (string expected, got no value)") == true, "\(result[3])")
        #expect((try? result[5].string())?.contains("bad argument #1 to 'describe' (string expected, got table)") == true, "\(result[5])")
    }
}
