import CLua
import CLuaShim

/// Describes how a Swift class appears in Lua: its constructor, methods,
/// properties, `tostring` and equality. Every exported function checks its
/// arguments, so a wrong one is a Lua error such as
/// `bad argument #2 to 'MovieLoader.new' (HTTPSession expected, got string)`.
///
/// ```swift
/// let loader = LuaClass<MovieLoader>()
///     .constructor { (cache: Cache, session: HTTPSession) in MovieLoader(cache: cache, session: session) }
///     .method("load") { (loader, id: Int) in loader.load(id) }
///     .property("pending") { $0.pendingCount }
///     .property("label", get: { $0.label }, set: { $0.label = $1 })
/// let table = try loader.install(in: lua)       // MovieLoader.new(...), obj:load(1), obj.pending
/// ```
public final class LuaClass<Object: LuaExportable> {
    typealias Getter = (Object, LuaFrame) throws -> Void
    typealias Setter = (Object, LuaFrame, Int32) throws -> Void

    var constructorBody: ((LuaFrame) throws -> Object)?
    var namedConstructorBody: ((LuaTable, LuaFrame) throws -> Object)?
    /// The constructor's argument types, when it declares them (for ``members``).
    var constructorArguments: [Any.Type]?
    /// Each property's Swift type (for ``members``).
    var propertyTypes: [String: Any.Type] = [:]
    /// Each method as the function Lua calls: it takes its receiver from the
    /// frame (see ``LuaFrame/receiver(as:typeName:)``).
    @usableFromInline var methods: [LuaMethodEntry] = []
    var getters: [String: Getter] = [:]
    var setters: [String: Setter] = [:]
    var describe: ((Object) -> String)?
    var equal: ((Object, Object) -> Bool)?
    var classFunctions: [(String, LuaFrameFunction)] = []
    /// Each member's parameter names and summary, as its Swift declaration
    /// gives them (``documented(_:parameters:summary:)``; `new` is the constructor's).
    var documentation: [String: (parameters: [String]?, summary: String?, argumentTypes: [String?]?)] = [:]

    /// A class with no members yet: add a constructor, methods and properties, then ``install(in:)`` it.
    public init() {}

    /// The Lua-visible name (`Object.luaTypeName`).
    public var name: String { Object.luaTypeName }

    // MARK: Constructors

    /// `Type.new()`.
    ///
    /// An error `body` throws is raised as a Lua error in the script calling
    ///   `Type.new()`.
    @discardableResult
    public func constructor(_ body: @escaping () throws -> Object) -> Self {
        constructorBody = { _ in try body() }
        constructorArguments = []
        return self
    }

    /// `Type.new(a)`.
    ///
    /// From Lua, a wrong argument raises `bad argument #1 to 'Type.new' (…)`,
    ///   and an error `body` throws is raised as a Lua error in the calling script.
    @discardableResult
    public func constructor<A: LuaArgument>(_ body: @escaping (A) throws -> Object) -> Self {
        constructorBody = { f in try body(A.read(from: f, at: 1)) }
        constructorArguments = [A.self]
        return self
    }

    /// `Type.new(a, b)`.
    ///
    /// From Lua, a wrong argument raises `bad argument #n to 'Type.new' (…)`,
    ///   and an error `body` throws is raised as a Lua error in the calling script.
    @discardableResult
    public func constructor<A: LuaArgument, B: LuaArgument>(_ body: @escaping (A, B) throws -> Object) -> Self {
        constructorBody = { f in try body(A.read(from: f, at: 1), B.read(from: f, at: 2)) }
        constructorArguments = [A.self, B.self]
        return self
    }

    /// `Type.new(a, b, c)`.
    ///
    /// From Lua, a wrong argument raises `bad argument #n to 'Type.new' (…)`,
    ///   and an error `body` throws is raised as a Lua error in the calling script.
    @discardableResult
    public func constructor<A: LuaArgument, B: LuaArgument, C: LuaArgument>(_ body: @escaping (A, B, C) throws -> Object) -> Self {
        constructorBody = { f in try body(A.read(from: f, at: 1), B.read(from: f, at: 2), C.read(from: f, at: 3)) }
        constructorArguments = [A.self, B.self, C.self]
        return self
    }

    /// `Type.new(…)` reading its arguments from the frame directly (for
    /// arguments no ``LuaArgument`` describes, such as interfaces).
    ///
    /// ```swift
    /// .constructor(frame: { SignInViewModel(api: try authInterface.argument($0, 1)) })
    /// ```
    ///
    /// An error `body` throws (a bad-argument error from reading the frame,
    ///   say) is raised as a Lua error in the script calling `Type.new(…)`.
    @discardableResult
    public func constructor(frame body: @escaping (LuaFrame) throws -> Object) -> Self {
        constructorBody = body
        return self
    }

    /// `Type.new(…)` reading its arguments from the frame, with the argument
    /// types it reads declared (for ``members``, `types` and completion) — any
    /// number of them; what `@Scriptable` generates for an initializer.
    ///
    /// ```swift
    /// .constructor(arguments: [String.self, Int.self]) { f in Order(id: try String.read(from: f, at: 1), count: try Int.read(from: f, at: 2)) }
    /// ```
    ///
    /// An error `body` throws (a bad-argument error from reading the frame,
    ///   say) is raised as a Lua error in the script calling `Type.new(…)`.
    @discardableResult
    public func constructor(arguments: [Any.Type], frame body: @escaping (LuaFrame) throws -> Object) -> Self {
        constructorBody = body
        constructorArguments = arguments
        return self
    }

    /// `Type.new { name = value, … }`: a constructor taking one table of named
    /// arguments (read them with ``LuaNamedArguments``).
    ///
    /// From Lua, an error `body` throws, or a `.typeMismatch` one for an
    ///   argument name `body` did not read, is raised as a Lua error in the calling script.
    @discardableResult
    public func namedConstructor(_ body: @escaping (LuaNamedArguments) throws -> Object) -> Self {
        namedConstructorBody = { table, f in
            let arguments = LuaNamedArguments(table: table, function: "\(Object.luaTypeName).new")
            let object = try body(arguments)
            try arguments.checkNoneUnused()
            _ = f
            return object
        }
        return self
    }

    // MARK: Methods

    /// `obj:name()`.
    ///
    /// From Lua, a receiver that is not an `Object` or an error `body` throws
    ///   is raised as a Lua error in the calling script.
    @discardableResult
    @inlinable
    public func method<R: LuaResult>(_ name: String, _ body: @escaping (Object) throws -> R) -> Self {
        methods.append(LuaMethodEntry(name, arguments: [], result: R.self,
                                      { f in try f.withReceiver(as: Object.self) { try body($0).push(to: f) }; return 1 }))
        return self
    }

    /// `obj:name(a)`.
    ///
    /// From Lua, a bad receiver or argument (a `bad argument` error) or an
    ///   error `body` throws is raised as a Lua error in the calling script.
    @discardableResult
    @inlinable
    public func method<A: LuaArgument, R: LuaResult>(_ name: String, _ body: @escaping (Object, A) throws -> R) -> Self {
        methods.append(LuaMethodEntry(name, arguments: [A.self], result: R.self,
                                      { f in try f.withReceiver(as: Object.self) { try body($0, A.read(from: f, at: 2)).push(to: f) }; return 1 }))
        return self
    }

    /// `obj:name(a, b)`.
    ///
    /// From Lua, a bad receiver or argument (a `bad argument` error) or an
    ///   error `body` throws is raised as a Lua error in the calling script.
    @discardableResult
    @inlinable
    public func method<A: LuaArgument, B: LuaArgument, R: LuaResult>(_ name: String, _ body: @escaping (Object, A, B) throws -> R) -> Self {
        methods.append(LuaMethodEntry(name, arguments: [A.self, B.self], result: R.self,
                                      { f in try f.withReceiver(as: Object.self) { try body($0, A.read(from: f, at: 2), B.read(from: f, at: 3)).push(to: f) }; return 1 }))
        return self
    }

    /// `obj:name(…)` returning nothing.
    ///
    /// From Lua, a receiver that is not an `Object` or an error `body` throws
    ///   is raised as a Lua error in the calling script.
    @discardableResult
    @inlinable
    public func method(_ name: String, _ body: @escaping (Object) throws -> Void) -> Self {
        methods.append(LuaMethodEntry(name, arguments: [], result: Void.self,
                                      { f in try f.withReceiver(as: Object.self) { try body($0) }; return 0 }))
        return self
    }

    /// `obj:name(a)` returning nothing.
    ///
    /// From Lua, a bad receiver or argument (a `bad argument` error) or an
    ///   error `body` throws is raised as a Lua error in the calling script.
    @discardableResult
    @inlinable
    public func method<A: LuaArgument>(_ name: String, _ body: @escaping (Object, A) throws -> Void) -> Self {
        methods.append(LuaMethodEntry(name, arguments: [A.self], result: Void.self,
                                      { f in try f.withReceiver(as: Object.self) { try body($0, A.read(from: f, at: 2)) }; return 0 }))
        return self
    }

    /// `obj:name(a, b)` returning nothing.
    ///
    /// From Lua, a bad receiver or argument (a `bad argument` error) or an
    ///   error `body` throws is raised as a Lua error in the calling script.
    @discardableResult
    @inlinable
    public func method<A: LuaArgument, B: LuaArgument>(_ name: String, _ body: @escaping (Object, A, B) throws -> Void) -> Self {
        methods.append(LuaMethodEntry(name, arguments: [A.self, B.self], result: Void.self,
                                      { f in try f.withReceiver(as: Object.self) { try body($0, A.read(from: f, at: 2), B.read(from: f, at: 3)) }; return 0 }))
        return self
    }

    /// A method working on its frame directly (any arguments, any results).
    ///
    /// From Lua, a receiver that is not an `Object` or an error `body` throws
    ///   is raised as a Lua error in the calling script.
    @discardableResult
    @inlinable
    public func method(_ name: String, frame body: @escaping (Object, LuaFrame) throws -> Int32) -> Self {
        methods.append(LuaMethodEntry(name, { f in try f.withReceiver(as: Object.self) { try body($0, f) } }))
        return self
    }

    /// `obj:name(…)` reading its arguments from the frame and pushing its
    /// results itself (returning how many), with its argument and result types
    /// declared (`result`: `Void.self` for none) — any number of arguments;
    /// what `@Scriptable` generates for a method.
    ///
    /// ```swift
    /// .method("add", arguments: [String.self, Int.self], result: Bool.self) { cart, f in
    ///     try cart.add(item: String.read(from: f, at: 2), count: Int.read(from: f, at: 3)).push(to: f); return 1
    /// }
    /// ```
    ///
    /// From Lua, a bad receiver or argument or an error `body` throws is
    ///   raised as a Lua error in the calling script.
    @discardableResult
    @inlinable
    public func method(_ name: String, arguments: [Any.Type], result: Any.Type,
                       frame body: @escaping (Object, LuaFrame) throws -> Int32) -> Self {
        methods.append(LuaMethodEntry(name, arguments: arguments, result: result, { f in try f.withReceiver(as: Object.self) { try body($0, f) } }))
        return self
    }

    /// A method `obj:name(key)` whose body may have its one result remembered
    /// for this object and key string: the body pushes the result and returns
    /// `true` to remember it, and later calls `obj:name(key)` — exactly those
    /// two arguments — answer from a table without entering Swift. For
    /// lookups whose answer never changes once known, such as a container's
    /// built singletons. The memo goes with the object (it is weak-keyed).
    ///
    /// ```swift
    /// LuaClass<Catalog>()
    ///     .memoizingMethod("entry") { catalog, frame in
    ///         let entry = try catalog.entry(named: frame.string(2))
    ///         try frame.push(entry.value)
    ///         return entry.isFinal           // remembered: the next call never enters Swift
    ///     }
    /// ```
    ///
    /// From Lua, a receiver that is not an `Object` or an error `body` throws
    ///   is raised as a Lua error in the calling script.
    @discardableResult
    public func memoizingMethod(_ name: String, _ body: @escaping (Object, LuaFrame) throws -> Bool) -> Self {
        methods.append(LuaMethodEntry(name, memoizing: true, { f in
            guard try f.withReceiver(as: Object.self, { try body($0, f) }) else { return 1 }
            f.pushMemoMarker()
            return 2
        }))
        return self
    }

    // MARK: Properties, tostring, equality

    /// A read-only property: `obj.name`.
    ///
    /// From Lua, an error `get` throws is raised in the script reading
    ///   `obj.name`, and assigning raises `property 'name' of Type is read-only`.
    @discardableResult
    public func property<V: LuaResult>(_ name: String, _ get: @escaping (Object) throws -> V) -> Self {
        getters[name] = { object, f in try get(object).push(to: f) }
        propertyTypes[name] = V.self
        return self
    }

    /// A read-write property: `obj.name`, `obj.name = value` (the value is checked).
    ///
    /// From Lua, an error `get` or `set` throws is raised as a Lua error in
    ///   the calling script, as is a value of the wrong type (`bad value for 'name' …`).
    @discardableResult
    public func property<V: LuaResult & LuaArgument>(_ name: String, get: @escaping (Object) throws -> V,
                                                      set: @escaping (Object, V) throws -> Void) -> Self {
        getters[name] = { object, f in try get(object).push(to: f) }
        setters[name] = { object, f, position in try set(object, V.read(from: f, at: position)) }
        propertyTypes[name] = V.self
        return self
    }

    /// A function on the class table besides `new` — a named factory such
    /// as `StoreDescription.inMemory()`. It returns how many results it pushed.
    ///
    /// ```swift
    /// LuaClass<StoreDescription>()
    ///     .classFunction("inMemory") { frame in try StoreDescription.inMemory.push(to: frame); return 1 }
    /// ```
    @discardableResult
    public func classFunction(_ name: String, _ body: @escaping LuaFrameFunction) -> Self {
        classFunctions.append((name, body))
        return self
    }

    /// Names the parameters of member `name` (`"new"` for the constructor) and
    /// says what it does, as the Swift declaration does: `factoryhost types`
    /// writes them into the editor's definitions (`---@param item string`)
    /// instead of names made from the types.
    ///
    /// ```swift
    /// .documented("add", parameters: ["item", "count"], summary: "Adds count of item to the cart.")
    /// ```
    ///
    /// `argumentTypes` names, by position, argument types that Swift's type
    /// cannot name (`"PaymentGateway"` for an `any PaymentGateway`; nil: as found).
    @discardableResult
    public func documented(_ name: String, parameters: [String]? = nil, summary: String? = nil,
                           argumentTypes: [String?]? = nil) -> Self {
        documentation[name] = (parameters, summary, argumentTypes)
        return self
    }

    /// What `tostring(obj)` says (default: `Type: 0x…`).
    @discardableResult
    public func tostring(_ body: @escaping (Object) -> String) -> Self {
        describe = body
        return self
    }

    /// What `a == b` means for two objects of this type (default: identity).
    @discardableResult
    public func equality(_ body: @escaping (Object, Object) -> Bool) -> Self {
        equal = body
        return self
    }
}

/// A method of an exported class as Lua calls it. (A class, not a tuple in
/// an array: a closure kept in an array element is kept at its most
/// general abstraction, and every call would go through conversion thunks.)
@usableFromInline
final class LuaMethodEntry {
    let name: String
    let body: LuaFrameFunction
    /// Answers may be remembered (``LuaClass/memoizingMethod(_:_:)``).
    let memoizing: Bool
    /// The argument types, when the method declares them (nil: it reads its
    /// frame itself); the result type (`Void` for none; nil: unknown).
    let arguments: [Any.Type]?
    let result: Any.Type?
    @usableFromInline
    init(_ name: String, memoizing: Bool = false, arguments: [Any.Type]? = nil, result: Any.Type? = nil,
         _ body: @escaping LuaFrameFunction) {
        self.name = name
        self.memoizing = memoizing
        self.arguments = arguments
        self.result = result
        self.body = body
    }
}

/// The named arguments of a table-style constructor: `T.new { a = 1, b = "x" }`.
/// Reading checks each value's type; an unknown name is an error too.
public final class LuaNamedArguments {
    let table: LuaTable
    let function: String
    private var used: Set<String> = []

    init(table: LuaTable, function: String) {
        self.table = table
        self.function = function
    }

    /// The argument `name` (nil if absent) converted to `T`.
    ///
    /// - Throws: a `LuaError` of kind `.typeMismatch` (`bad argument 'name' to 'Type.new' (…)`) when the
    ///   value is present but not a `T`; `.closed` when the state is closed.
    public func optional<T: LuaConvertible>(_ name: String, as type: T.Type = T.self) throws -> T? {
        used.insert(name)
        let value = try table.rawGet(LuaValue(name))
        if case .nil = value { return nil }
        do {
            return try T.fromLua(value)
        } catch let error as LuaError {
            throw LuaError(.typeMismatch, "bad argument '\(name)' to '\(function)' (\(error.message))")
        }
    }

    /// The argument `name`, which must be present.
    ///
    /// - Throws: a `LuaError` of kind `.typeMismatch` (`bad argument 'name' to 'Type.new' (…)`) when the
    ///   argument is absent or not a `T`; `.closed` when the state is closed.
    public func required<T: LuaConvertible>(_ name: String, as type: T.Type = T.self) throws -> T {
        guard let value = try optional(name, as: T.self) else {
            throw LuaError(.typeMismatch, "bad argument '\(name)' to '\(function)' (\(T.luaTypeName) expected, got no value)")
        }
        return value
    }

    func checkNoneUnused() throws {
        for (key, _) in try table.pairs() {
            guard case .string(let name) = key, used.contains(name.description) else {
                let known = used.sorted().joined(separator: ", ")
                throw LuaError(.typeMismatch, "'\(function)' has no argument named \(key) (it takes: \(known.isEmpty ? "none" : known))")
            }
        }
    }
}
