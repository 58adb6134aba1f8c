import Foundation
import FactoryMacros
import Testing

// Shapes an attack on the attributes found wanting, each now exported as
// Swift declares it.

/// A booking: fields called `table` and `state` (names the generated code uses).
@ScriptValue
struct Booking: Equatable {
    var table: Int
    var state: String
    var guests: Int = 2                        // a default: a script may leave it out
    var x, y: Double                           // one type written for two fields
    @ScriptIgnored var onChange: (() -> Void)? = nil
    static func == (a: Booking, b: Booking) -> Bool {
        a.table == b.table && a.state == b.state && a.guests == b.guests && a.x == b.x && a.y == b.y
    }
}

/// An account whose private field stays Swift's: not in the table.
@ScriptValue
struct Account {
    var owner: String
    private var secret = "s3cret"
    static func sample() -> Account { Account(owner: "ann") }
}

/// A tree: a value that holds values of its own type.
@ScriptValue
struct Tree {
    var name: String
    var children: [Tree]
}

@ScriptValue
struct Person {
    var name: String
    var home: Booking?
}

@Scriptable
final class Restaurant {
    init(name: String, tables: Int = 10) {
        self.name = name
        self.tables = tables
    }
    let name: String
    let tables: Int
    /// A default in the middle: later arguments still line up.
    func book(_ table: Int, guests: Int = 2, note: String? = "none") -> String { "\(table):\(guests):\(note ?? "nil")" }
    func booking(_ table: Int) -> Booking { Booking(table: table, state: "held", x: 0, y: 0) }
    func tableOf(_ booking: Booking) -> Int { booking.table }
    func count(_ tree: Tree) -> Int { 1 + tree.children.map(count).reduce(0, +) }
    func homeOf(_ person: Person) -> String { person.home?.state ?? "none" }
    func level(_ value: UInt8) -> Int { Int(value) }
    func half(_ value: Float) -> Float { value / 2 }
    func small(_ value: Int16) -> Int16 { value }
    static func make() -> Restaurant { Restaurant(name: "made") }
    func make() -> String { "instance make" }     // another table than the class function's
    func nothing() -> () {}
    func tree(_ depth: Int) -> Tree {
        var tree = Tree(name: "leaf", children: [])
        for _ in 0..<depth { tree = Tree(name: "n", children: [tree]) }
        return tree
    }
    /// A default naming what the generated code calls its own locals.
    func shadowed(_ x: Int = frame) -> Int { x }
    func optionalDefault(_ x: Int? = 5) -> String { x.map(String.init) ?? "nil" }
}

/// A global named as the generated code's locals once were.
let frame = 41

@MainActor
@Scriptable
final class Menu {
    init() {}
    var dishes: Int { get throws { throw MenuError.closed } }
}

enum MenuError: Error, CustomStringConvertible {
    case closed
    var description: String { "the kitchen is closed" }
}

@Suite("Shapes the attack on the attributes found")
struct AttackedShapesTests {
    func state() throws -> LuaState {
        let lua = try LuaState()
        try lua.setGlobal("Restaurant", .table(Restaurant.luaClass.install(in: lua)))
        return lua
    }

    func message(_ lua: LuaState, _ code: String) -> String {
        do { _ = try lua.run(code, name: "bad.lua"); return "no error" } catch let error as LuaError { return error.message } catch {
            return "\(error)"
        }
    }

    @Test func aFieldNamedTableOrStateIsTheField() throws {
        let lua = try state()
        let results = try lua.run("""
            local r = Restaurant.new("R")
            local b = r:booking(7)
            return b.table, b.state, b.guests, b.onChange, r:tableOf(b), r:tableOf({ table = 3, state = "s", x = 1, y = 2 })
            """, name: "booking.lua")
        #expect(results == [.integer(7), LuaValue("held"), .integer(2), .nil, .integer(7), .integer(3)])
        guard case .table(let account) = try Account.sample().toLua(in: lua) else { Issue.record("not a table"); return }
        #expect(try account.get(LuaValue("owner")) == LuaValue("ann"))
        #expect(try account.get(LuaValue("secret")) == .nil)
    }

    @Test func defaultValuesFillWhatAScriptLeavesOut() throws {
        let lua = try state()
        let results = try lua.run("""
            local r = Restaurant.new("R")
            return r.tables, Restaurant.new("S", 4).tables, r:book(1), r:book(1, nil, "window"), r:book(1, 6)
            """, name: "defaults.lua")
        #expect(results == [.integer(10), .integer(4), LuaValue("1:2:none"), LuaValue("1:2:window"), LuaValue("1:6:none")])
        // A struct field's default, when the table lacks it.
        let guests = try lua.run("return Restaurant.new('R'):tableOf({ table = 5, state = 's', x = 0, y = 0 })", name: "d.lua")
        #expect(guests == [.integer(5)])
        #expect(message(lua, "Restaurant.new('R'):book(1, 'six')").contains("bad argument #2 to 'Restaurant:book' (integer expected, got string)"))
    }

    @Test func aNestedValueSaysWhatIsWrongInside() throws {
        let lua = try state()
        let said = message(lua, "Restaurant.new('R'):homeOf({ name = 'Ann', home = { table = 'one', state = 's', x = 0, y = 0 } })")
        #expect(said.contains("Person.home: Booking.table: integer expected, got string"), "\(said)")
        let tree = message(lua, "Restaurant.new('R'):count({ name = 'a', children = { { name = 'b', children = { { name = 3, children = {} } } } } })")
        #expect(tree.contains("Tree.children: element [1]: Tree.children: element [1]: Tree.name: string expected, got integer"), "\(tree)")
    }

    @Test func aTableThatContainsItselfIsAnErrorNotACrash() throws {
        let lua = try state()
        let cyclic = message(lua, "local t = { name = 'c', children = {} }; t.children[1] = t; return Restaurant.new('R'):count(t)")
        #expect(cyclic.contains("nested too deeply to convert"), "\(cyclic)")
        let deep = message(lua, """
            local root = { name = 'r', children = {} }
            local t = root
            for i = 1, 100000 do local c = { name = 'n', children = {} }; t.children[1] = c; t = c end
            return Restaurant.new('R'):count(root)
            """)
        #expect(deep.contains("nested too deeply to convert"), "\(deep)")
        #expect(deep.utf8.count < 4096, "the message grew with the depth: \(deep.utf8.count) bytes")
        let fine = try lua.run("""
            local root = { name = 'r', children = {} }
            local t = root
            for i = 1, 200 do local c = { name = 'n', children = {} }; t.children[1] = c; t = c end
            return Restaurant.new('R'):count(root)
            """, name: "fine.lua")
        #expect(fine == [.integer(201)])
    }

    @Test func otherNumericTypesConvertWithTheirRange() throws {
        let lua = try state()
        #expect(try lua.run("local r = Restaurant.new('R') return r:level(255), r:half(3), r:small(-300)", name: "n.lua")
                == [.integer(255), .number(1.5), .integer(-300)])
        let overflow = message(lua, "Restaurant.new('R'):half(1e300)")
        #expect(overflow.contains("bad argument #1 to 'Restaurant:half' (number in Float's range"), "\(overflow)")
        let said = message(lua, "Restaurant.new('R'):level(300)")
        #expect(said.contains("bad argument #1 to 'Restaurant:level' (integer in UInt8's range 0…255 expected, got 300)"), "\(said)")
        #expect(message(lua, "Restaurant.new('R'):level(-1)").contains("UInt8's range"))
    }

    /// (On a thread of its own with a 16 MB stack: Swift's own release of a
    /// value that deep recurses too, though less deeply than converting it.)
    @Test func aDeepValueGoingToLuaIsAnErrorNotACrash() async throws {
        let depth = 40_000
        let said: String = await withCheckedContinuation { done in
            let thread = Thread {
                do {
                    let lua = try self.state()
                    done.resume(returning: self.message(lua, "return Restaurant.new('R'):tree(\(depth))"))
                } catch {
                    done.resume(returning: "\(error)")
                }
            }
            thread.stackSize = 16 << 20
            thread.start()
        }
        #expect(said.contains("nested too deeply to convert"), "\(said)")
        let lua = try state()
        #expect(try lua.run("return Restaurant.new('R'):tree(50).name", name: "t.lua") == [LuaValue("n")])
    }

    @Test func defaultsSeeTheirOwnNamesAndAnOptionalMayBeGivenNil() throws {
        let lua = try state()
        let results = try lua.run("local r = Restaurant.new('R') return r:shadowed(), r:optionalDefault(), r:optionalDefault(nil), r:nothing()",
                                  name: "d.lua")
        #expect(results == [.integer(41), LuaValue("5"), LuaValue("nil")])
    }

    @Test func aClassFunctionAndAMethodMayShareAName() throws {
        let lua = try state()
        #expect(try lua.run("return Restaurant.make().name, Restaurant.new('R'):make()", name: "m.lua") == [LuaValue("made"), LuaValue("instance make")])
    }

    /// A throwing getter of a main-actor class compiles (its read lacked a `try`) and is exported;
    /// it runs on the main thread (the shop example's specs run one there).
    @Test func aThrowingGetterOfAMainActorClassIsExported() {
        #expect(Menu.luaClass.members.properties == ["dishes"])
    }
}
