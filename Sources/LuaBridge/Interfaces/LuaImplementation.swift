/// A Lua table checked to implement an interface: what a protocol adapter
/// calls. Every result is checked against the type the adapter expects, and
/// a wrong one is an error naming the method, where it was defined, what
/// came back and what was expected.
///
/// ```swift
/// func signIn(_ user: String, _ password: String) throws -> UserSession {
///     try implementation.call("signIn", user, password, returning: UserSession.self)
/// }
/// // AuthRemoteAPI.signIn (fake.lua:4) returned string, expected UserSession
/// ```
// @unchecked Sendable: adapters are handed to any thread, and every call checks the owner thread before it
// touches Lua. `table`, `interfaceName`, `link` and `owner` are lets; `face` is set by `present(as:)` before the
// implementation is handed out, on the owner thread, and read only there.
public final class LuaImplementation: @unchecked Sendable {
    /// The implementing table: where Swift finds its methods and properties.
    public let table: LuaTable
    /// The table Lua gets when the implementation is handed back to it, and
    /// the receiver of its methods: `table` itself, unless a host generated
    /// the implementation and shows scripts a read-only face of it
    /// (``present(as:)``) — a script cannot then change what Swift calls.
    public private(set) var face: LuaTable
    /// The interface it implements.
    public let interfaceName: String
    private let link: LuaStateLink
    /// The state's owner thread, checked before `link` is read: off that thread the state may be closing.
    private let owner: LuaStateOwnerThread

    init<P>(checking table: LuaTable, implements interface: LuaInterface<P>, in state: LuaState) throws {
        let problems = try interface.problems(in: table)
        guard problems.isEmpty else {
            let detail = problems.joined(separator: "; ")
                + " (required: \(interface.requiredMethods.joined(separator: ", "))"
                + (interface.properties.isEmpty ? "" : "; properties: " + interface.properties.map(\.name).joined(separator: ", "))
                + ")"
            var error = LuaError(.typeMismatch, "table does not implement \(interface.name): \(detail)")
            error.problem = .notImplementing(interface: interface.name, detail: detail)
            throw error
        }
        self.table = table
        self.face = table
        self.interfaceName = interface.name
        self.link = state.link
        self.owner = state.ownerThread
    }

    /// Shows Lua `face` instead of the implementing table, from now on.
    ///
    /// ```swift
    /// (adapter as? LuaImplemented)?.implementation.present(as: readOnlyProxy)
    /// ```
    public func present(as face: LuaTable) {
        self.face = face
    }

    /// Calls `table:method(arguments…)` and returns its first result as `R`.
    ///
    /// - Throws: a `LuaError`: `.closed` once the state is closed, `.runtime` off its owner thread,
    ///   `.typeMismatch` when the method is gone or returns no `R`, or what an argument or the method raises.
    public func call<R: LuaConvertible>(_ method: String, _ arguments: any LuaConvertible...,
                                        returning type: R.Type = R.self) throws -> R {
        let (results, function) = try invoke(method, arguments)
        let first = results.first ?? .nil
        do {
            return try R.fromLua(first)
        } catch let error as LuaError where error.kind == .typeMismatch {
            let place = function.definition.map { " (\($0))" } ?? ""
            throw LuaError(.typeMismatch, "\(interfaceName).\(method)\(place) returned \(results.isEmpty ? "nothing" : first.typeName), expected \(R.luaTypeName)")
        }
    }

    /// The implementation's property `name` (`table.name`) as `R`: what an
    /// adapter's `var creditService: CreditService { get throws }` reads.
    /// Anything else is an error naming the property and what it holds.
    ///
    /// ```swift
    /// var creditService: CreditService { get throws { try implementation.property("creditService") } }
    /// ```
    ///
    /// - Throws: a `LuaError`: `.closed` once the state is closed, `.runtime` off its owner thread,
    ///   `.typeMismatch` when the property is missing or not an `R`, or what an `__index` metamethod raises.
    public func property<R: LuaConvertible>(_ name: String, as type: R.Type = R.self) throws -> R {
        try owner.check("\(interfaceName).\(name) (implemented in Lua)")
        guard link.state != nil else { throw LuaError(.closed, "\(interfaceName).\(name): the Lua state is closed") }
        let value = try table.get(LuaValue(name))
        do {
            return try R.fromLua(value)
        } catch let error as LuaError where error.kind == .typeMismatch {
            throw LuaError(.typeMismatch, "\(interfaceName).\(name) is \(value.isNil ? "missing" : value.typeName), expected \(R.luaTypeName)")
        }
    }

    /// Calls `table:method(arguments…)` for its effect; results are ignored.
    ///
    /// - Throws: a `LuaError`: `.closed` once the state is closed, `.runtime` off its owner thread,
    ///   `.typeMismatch` when the method is gone, or what an argument's conversion or the method raises.
    public func call(_ method: String, _ arguments: any LuaConvertible...) throws {
        _ = try invoke(method, arguments)
    }

    private func invoke(_ method: String, _ arguments: [any LuaConvertible]) throws -> ([LuaValue], LuaFunction) {
        try owner.check("\(interfaceName).\(method) (implemented in Lua)")
        guard let state = link.state else { throw LuaError(.closed, "\(interfaceName).\(method): the Lua state is closed") }
        guard case .function(let function) = try table.get(LuaValue(method)) else {
            throw LuaError(.typeMismatch, "\(interfaceName).\(method): the Lua implementation no longer has this method")
        }
        let values = try [LuaValue.table(face)] + arguments.map { try $0.toLua(in: state) }
        return (try function.call(arguments: values), function)
    }
}

extension LuaState {
    /// Makes `face` stand for `table` as an interface implementation: when
    /// Lua hands `face` to Swift as an interface, Swift calls `table`'s
    /// methods and reads its properties (and Lua gets `face` back). A host
    /// generating an implementation shows scripts a read-only face this way,
    /// so that no `rawset` on what they hold changes what Swift calls.
    ///
    /// ```swift
    /// try lua.presentImplementation(members, as: proxy)     // proxy's __index is members
    /// let factory = try interface.implementation(of: .table(proxy), in: lua)
    /// ```
    ///
    /// - Throws: a `LuaError` of kind `.closed` when the state is closed or either table belongs to another
    ///   state.
    public func presentImplementation(_ table: LuaTable, as face: LuaTable) throws {
        if implementationFaces == nil {
            let faces = try newTable(), weakKeys = try newTable(hashCapacity: 1)
            try weakKeys.rawSet("__mode", "k")
            try setMetatable(of: faces, to: weakKeys)
            implementationFaces = faces
        }
        try implementationFaces?.rawSet(.table(face), .table(table))
    }

    /// The table `face` stands for (``presentImplementation(_:as:)``), if any.
    func implementingTable(of face: LuaTable) throws -> LuaTable? {
        guard let faces = implementationFaces, case .table(let table) = try faces.rawGet(.table(face)) else { return nil }
        return table
    }
}
