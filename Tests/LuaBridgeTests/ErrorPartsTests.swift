import Testing
@testable import LuaBridge

/// Code that rewords an error reads its parts (`argument`, `problem`),
/// never its text: a message that happens to read like another error is
/// not taken for it.
@Suite("Errors carry their parts")
struct ErrorPartsTests {
    let lua: LuaState
    init() throws { lua = try LuaState() }

    @Test func aTypeErrorCarriesTheArgumentAndWhatWasExpected() throws {
        try lua.registerFrame("probe") { frame in
            do {
                _ = try frame.integer(2)
                return 0
            } catch let error as LuaError {
                guard case .wrongType(let expected, let got)? = error.problem, let argument = error.argument else { return 0 }
                frame.push("\(argument.function) \(argument.position) \(expected) \(got) \(argument.detail)")
                return 1
            }
        }
        #expect(try lua.run("return probe(1, 'x')", name: "p.lua") == ["probe 2 integer string integer expected, got string"])
    }

    @Test func anOptionalArrayKeepsWhichElementIsWrong() throws {
        // The element is a table, like the argument: the message ends as a
        // plain "…expected, got table" would, and used to be taken for one.
        try lua.registerFrame("numbers") { frame in
            let numbers = try [Int]?.read(from: frame, at: 1)
            frame.push(numbers.map { $0.count } ?? -1)
            return 1
        }
        #expect(try lua.run("return numbers(nil), numbers({1, 2})", name: "n.lua") == [-1, 2])
        let element = try #require(expectLuaError(lua, "numbers({1, {}})", name: "e.lua"))
        #expect(element.message == "e.lua:1: bad argument #1 to 'numbers' (element [2]: integer expected, got table)")
        // A plain type error is still reworded to accept nil.
        #expect(expectLuaError(lua, "numbers('x')", name: "s.lua")?.message
                == "s.lua:1: bad argument #1 to 'numbers' (array of integer or nil expected, got string)")
    }

    @Test func aConversionKeepsItsKindAndNamesTheArgument() throws {
        try lua.register("probe") { call in
            do {
                _ = try call.argument(1, as: String.self)
                return ["read"]
            } catch let error as LuaError {
                return [LuaValue(error.kind.rawValue), .integer(error.argument?.position ?? -1), LuaValue(error.message)]
            }
        }
        let result = try lua.run("return probe('\\255')", name: "u.lua")
        #expect(result.first == "encoding")
        #expect(result.dropFirst().first == 1)
        #expect(try lua.run("return probe()", name: "m.lua") == ["typeMismatch", 1, "bad argument #1 to 'probe' (string expected, got no value)"])
    }

    @Test func registeringOnAClosedStateIsAnError() throws {
        let closed = try LuaState()
        closed.close()
        #expect(throws: LuaError.self) { try closed.register("f") { _ in [] } }
        #expect(throws: LuaError.self) { try closed.registerFrame("g") { _ in 0 } }
    }
}
