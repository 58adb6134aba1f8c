import FactoryMacros
import Testing

/// An order, exported in one attribute.
@Scriptable
final class Order {
    let id: String
    var quantity: Int
    private(set) var notes: [String] = []
    /// The total in cents.
    var total: Int { quantity * 250 }

    init(id: String, quantity: Int) {
        self.id = id
        self.quantity = quantity
    }

    /// Adds a note; returns how many there are.
    func note(_ text: String) -> Int {
        notes.append(text)
        return notes.count
    }

    /// Fails for a quantity under one.
    func resize(to quantity: Int, reason: String?) throws {
        guard quantity > 0 else { throw OrderError.badQuantity(quantity) }
        self.quantity = quantity
        if let reason { notes.append(reason) }
    }

    /// Three arguments and more: any number.
    func describe(prefix: String, count: Int, upper: Bool, suffix: String) -> String {
        let text = "\(prefix)\(id)x\(count)\(suffix)"
        return upper ? text.uppercased() : text
    }

    static func sample() -> Order { Order(id: "sample", quantity: 1) }

    @ScriptIgnored func secret() -> Int { 42 }
    private func hidden() -> Int { 7 }
}

enum OrderError: Error, CustomStringConvertible {
    case badQuantity(Int)
    var description: String {
        switch self { case .badQuantity(let quantity): "a quantity must be at least 1, not \(quantity)" }
    }
}

/// A gateway a Lua table may implement.
@ScriptImplementable
protocol PaymentGateway: AnyObject {
    func charge(amount: Int, currency: String) throws -> Bool
    func refund(order: Order) throws
    var name: String { get throws }
}

/// Takes an implementation: an `any P` argument.
@Scriptable
final class Checkout {
    @ScriptIgnored let gateway: any PaymentGateway
    init(gateway: any PaymentGateway) { self.gateway = gateway }
    func pay(_ order: Order) throws -> Bool { try gateway.charge(amount: order.total, currency: "EUR") }
    func gatewayName() throws -> String { try gateway.name }
}

@Suite("@Scriptable and @ScriptImplementable")
struct ScriptableTests {
    func state() throws -> LuaState {
        let lua = try LuaState()
        try lua.setGlobal("Order", .table(Order.luaClass.install(in: lua)))
        try lua.setGlobal("Checkout", .table(Checkout.luaClass.install(in: lua)))
        return lua
    }

    @Test func aClassIsExportedInOneAttribute() throws {
        let lua = try state()
        let results = try lua.run("""
            local o = Order.new("A1", 2)
            o.quantity = 3
            return o.id, o.quantity, o.total, o:note("gift"), o:describe("#", 5, true, "!"), Order.sample().id, #o.notes
            """, name: "order.lua")
        #expect(results == [LuaValue("A1"), .integer(3), .integer(750), .integer(1), LuaValue("#A1X5!"), LuaValue("sample"), .integer(1)])
    }

    @Test func argumentsAreCheckedAndSwiftErrorsBecomeLuaErrors() throws {
        let lua = try state()
        let cases: [(String, String)] = [
            ("Order.new(1, 2)", "bad argument #1 to 'Order.new' (string expected, got integer)"),
            ("Order.new('a', 1):resize(0, nil)", "a quantity must be at least 1, not 0"),
            ("Order.new('a', 1).notes = {}", "read-only"),
            ("Order.new('a', 1).total = 1", "read-only"),
            ("return Order.new('a', 1).secret", "secret"),
            ("return Order.new('a', 1):hidden()", "hidden"),
            ("Order.new('a', 1).quantity = 'x'", "integer"),
        ]
        for (code, expected) in cases {
            var message = "no error"
            do { _ = try lua.run(code, name: "bad.lua") } catch let error as LuaError { message = error.message }
            #expect(message.contains(expected), "\(code): \(message)")
        }
        // An optional argument may be nil or absent.
        let ok = try lua.run("local o = Order.new('a', 1) o:resize(4) o:resize(5, 'more') return o.quantity, #o.notes", name: "ok.lua")
        #expect(ok == [.integer(5), .integer(1)])
    }

    @Test func aLuaTableImplementsAProtocolWithEveryCallChecked() throws {
        let lua = try state()
        let paid = try lua.run("""
            local gateway = { name = "fake", charged = 0 }
            function gateway:charge(amount, currency) self.charged = self.charged + amount return currency == "EUR" end
            function gateway:refund(order) end
            local checkout = Checkout.new(gateway)
            return checkout:pay(Order.new("A1", 2)), gateway.charged, checkout:gatewayName()
            """, name: "pay.lua")
        #expect(paid == [.boolean(true), .integer(500), LuaValue("fake")])
        let failures: [(String, String)] = [
            ("Checkout.new({ refund = print })", "missing charge"),
            ("Checkout.new({ charge = function() return 'yes' end, refund = print, name = 'x' }):pay(Order.new('a', 1))",
             "PaymentGateway.charge (bad.lua:1) returned string, expected boolean"),
            ("Checkout.new({ charge = function() error('declined') end, refund = print, name = 'x' }):pay(Order.new('a', 1))", "declined"),
            ("Checkout.new({ charge = print, refund = print, name = 3 })", "table does not implement PaymentGateway: property name is an integer, not string"),
        ]
        for (code, expected) in failures {
            var message = "no error"
            do { _ = try lua.run(code, name: "bad.lua") } catch let error as LuaError { message = error.message }
            #expect(message.contains(expected), "\(code): \(message)")
        }
    }

    @Test func theDeclarationNamesTheParametersAndDescribesTheMembers() {
        let members = Order.luaClass.members
        #expect(members.parameterNames["new"] == ["id", "quantity"])
        #expect(members.parameterNames["resize"] == ["quantity", "reason"])          // the names, not the label "to"
        #expect(members.parameterNames["note"] == ["text"])
        #expect(members.summaries["note"] == "Adds a note; returns how many there are.")
        #expect(members.summaries["total"] == "The total in cents.")
        #expect(members.signatures["resize"] == LuaSignature(arguments: ["integer", "string or nil"], result: nil))
        #expect(members.methods.sorted() == ["describe", "note", "resize"])
        #expect(members.classFunctions == ["sample"])
        #expect(members.settableProperties == ["quantity"])
        #expect(members.properties == ["id", "notes", "quantity", "total"])
        #expect(Checkout.luaClass.members.constructorArguments == ["PaymentGateway"])        // an 'any P' argument by P's name
        #expect(LuaPaymentGateway.interface.requiredMethods == ["charge", "refund"])
        #expect(LuaPaymentGateway.interface.properties.map(\.name) == ["name"])
    }
}

/// A main-actor view model, exported in one attribute under Swift 6.
@Scriptable @MainActor
final class CartViewModel {
    private(set) var items: [String] = []
    init() {}
    /// Adds an item; returns how many there are.
    func add(_ item: String) -> Int {
        items.append(item)
        return items.count
    }
}

@Suite("@Scriptable on a main-actor class")
struct MainActorScriptableTests {
    /// Off the main thread, each member says it runs on the main actor (on the
    /// main thread — the CLI's — it runs: the host tests show it).
    @Test func offTheMainThreadAMemberIsALuaErrorNamingIt() async throws {
        let message: String? = await Task.detached {
            do {
                let lua = try LuaState()
                try lua.setGlobal("CartViewModel", .table(CartViewModel.luaClass.install(in: lua)))
                _ = try lua.run("CartViewModel.new()", name: "worker.lua")
                return nil
            } catch let error as LuaError {
                return error.message
            } catch {
                return "\(error)"
            }
        }.value
        #expect(message?.hasPrefix("worker.lua:1: CartViewModel.new runs on the main actor") == true, "\(message ?? "no error")")
        #expect(CartViewModel.luaClass.members.methods == ["add"])
        #expect(CartViewModel.luaClass.members.properties == ["items"])
    }
}

/// A value: scripts hold it as a table.
@ScriptValue
struct Address: Equatable {
    var street: String
    var number: Int
    var note: String?
}

/// Takes and gives structs, alone and in arrays.
@Scriptable
final class AddressBook {
    private(set) var addresses: [Address] = []
    init() {}
    /// Keeps an address; returns how many there are.
    func add(_ address: Address) -> Int {
        addresses.append(address)
        return addresses.count
    }
    func first() -> Address? { addresses.first }
}

@Suite("@ScriptValue on a struct")
struct ScriptableStructTests {
    @Test func aStructIsATableBothWaysEachFieldChecked() throws {
        let lua = try LuaState()
        try lua.setGlobal("AddressBook", .table(AddressBook.luaClass.install(in: lua)))
        let results = try lua.run("""
            local book = AddressBook.new()
            book:add({ street = "Main", number = 1 })
            local n = book:add({ street = "High", number = 2, note = "back door" })
            local first = book:first()
            return n, first.street, first.number, first.note, #book.addresses, book.addresses[2].note
            """, name: "book.lua")
        #expect(results == [.integer(2), LuaValue("Main"), .integer(1), .nil, .integer(2), LuaValue("back door")])
        let failures: [(String, String)] = [
            ("AddressBook.new():add({ street = 'Main', number = 'one' })", "Address.number: integer expected, got string"),
            ("AddressBook.new():add({ number = 1 })", "Address.street: string expected, got nothing"),
            ("AddressBook.new():add('Main 1')", "bad argument #1 to 'AddressBook:add' (Address expected, got string)"),
        ]
        for (code, expected) in failures {
            var message = "no error"
            do { _ = try lua.run(code, name: "bad.lua") } catch let error as LuaError { message = error.message }
            #expect(message.contains(expected), "\(code): \(message)")
        }
        #expect(try Address.fromLua(Address(street: "S", number: 3).toLua(in: lua)) == Address(street: "S", number: 3))
    }
}
