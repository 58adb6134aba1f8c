import CLua
import CLuaShim

/// The body of a Swift function that works directly on its Lua stack frame:
/// it reads arguments by position, pushes its results, and returns how many
/// it pushed. No arrays are built, so a call costs little more than a bare
/// `lua_CFunction` (see the `lua_call` benchmark). Throwing raises a Lua
/// error at the caller's position, as with ``LuaFunctionBody``.
///
/// - Throws: any error, which is raised in Lua for the caller: with the caller's position in front, unless it
///   is a `LuaRaise` or an error Lua code raised.
public typealias LuaFrameFunction = (LuaFrame) throws -> Int32

/// One call's stack frame, for ``LuaFrameFunction``s.
///
/// ```swift
/// try lua.registerFrame("add") { f in
///     f.push(try f.integer(1) + f.integer(2))
///     return 1
/// }
/// // add(1, "x")  →  bad argument #2 to 'add' (integer expected, got string)
/// ```
///
/// Up to 20 results can be pushed as they are (Lua guarantees that much
/// room); call ``reserve(_:)`` before pushing more.
public struct LuaFrame {
    /// The state the call runs in. `unowned(unsafe)`: a frame exists only for the call it describes, and the Swift
    /// code that entered Lua holds the state strongly until that call returns (a `close()` meanwhile is deferred
    /// to the outermost return). A frame must not be kept past its call (nor `L`); one is made per call, uncounted.
    public unowned(unsafe) let state: LuaState
    @usableFromInline let L: OpaquePointer
    /// How many arguments Lua passed (results pushed later do not count).
    public let count: Int32
    /// Whether Lua called a Swift function with this frame (else Swift made
    /// it around its own call into Lua).
    let calledFromLua: Bool
    /// For a method: the object in argument 1 when the C trampoline found it
    /// to be exactly of the receiver's class.
    @usableFromInline let receiver: UnsafeMutableRawPointer?
    // Four words: small enough to travel in registers on every call.

    /// The name the function reports in argument errors.
    public var name: String {
        guard calledFromLua, let raw = fh_running_box(L) else { return "result" }
        return Unmanaged<SwiftFunctionBox>.fromOpaque(raw).takeUnretainedValue().name
    }

    /// A frame for a call from Lua (the trampoline counted the arguments).
    @inline(__always)
    init(state: LuaState, L: OpaquePointer, count: Int32, receiver: UnsafeMutableRawPointer?) {
        self.state = state
        self.L = L
        self.count = count
        self.calledFromLua = true
        self.receiver = receiver
    }

    /// A frame around Swift's own call into Lua (arguments and results).
    init(state: LuaState, L: OpaquePointer) {
        self.state = state
        self.L = L
        self.count = lua_gettop(L)
        self.calledFromLua = false
        self.receiver = nil
    }

    // MARK: Arguments

    /// Argument `position` as an integer (a float with an exact integer value converts).
    ///
    /// - Throws: a `LuaError` of kind `.typeMismatch` (`bad argument #n to 'name' (…)`) when the argument is
    ///   not a number (a string is not converted) or is a float with no exact integer value.
    @inlinable
    public func integer(_ position: Int32) throws -> Int {
        var exact: Int32 = 0
        if lua_type(L, position) == LUA_TNUMBER {
            let value = lua_tointegerx(L, position, &exact)
            if exact != 0 { return Int(value) }
            throw argumentError(position, "number has no integer representation")
        }
        throw typeError(position, expected: "integer")
    }

    /// Argument `position` as a finite Double (integers convert). NaN and
    /// ±inf are refused ("bad argument #1 to 'f' (finite number expected,
    /// got nan)"): Swift code given one traps on its first `Int(x)`. Take a
    /// ``LuaValue`` to see every number as it is.
    ///
    /// - Throws: a `LuaError` of kind `.typeMismatch` (a bad-argument error) when the argument is not a
    ///   number (a string is not converted), or is NaN or ±inf.
    @inlinable
    public func number(_ position: Int32) throws -> Double {
        guard lua_type(L, position) == LUA_TNUMBER else { throw typeError(position, expected: "number") }
        let value = lua_tonumberx(L, position, nil)
        guard value.isFinite else {
            throw argumentError(position, "finite number expected, got \(value.isNaN ? "nan" : value < 0 ? "-inf" : "inf")")
        }
        return value
    }

    /// Argument `position` as a Bool (only `true` and `false` are booleans).
    ///
    /// - Throws: a `LuaError` of kind `.typeMismatch` (a bad-argument error) when the argument is not a
    ///   boolean.
    @inlinable
    public func boolean(_ position: Int32) throws -> Bool {
        guard lua_type(L, position) == LUA_TBOOLEAN else { throw typeError(position, expected: "boolean") }
        return lua_toboolean(L, position) != 0
    }

    /// Argument `position` as Swift text (a string of valid UTF-8).
    ///
    /// - Throws: a `LuaError` of kind `.typeMismatch` (a bad-argument error) when the argument is not a
    ///   string (a number is not converted) or is not valid UTF-8.
    public func string(_ position: Int32) throws -> String {
        guard lua_type(L, position) == LUA_TSTRING else { throw typeError(position, expected: "string") }
        var length = 0
        guard let chars = fh_tolstring(L, position, &length),
              let text = String(validating: UnsafeRawBufferPointer(start: chars, count: length), as: UTF8.self) else {
            throw argumentError(position, "string is not valid UTF-8")
        }
        return text
    }

    /// Argument `position` as any value (`.nil` past the last one).
    public func value(_ position: Int32) -> LuaValue {
        position <= count ? state.value(at: position, in: L) : .nil
    }

    /// Argument `position` lent in place, to read without converting it
    /// (see ``LuaSlot``); nil past the last argument.
    ///
    /// ```swift
    /// guard let body = frame.slot(1), body.type == .table else { throw frame.typeError(1, expected: "table") }
    /// try body.forEachEntry { key, value in … }
    /// ```
    public func slot(_ position: Int32) -> LuaSlot? {
        position >= 1 && position <= count ? LuaSlot(state: state, L: L, index: position) : nil
    }

    /// The value the function pushed last (on top of the stack), as a
    /// ``LuaValue`` — to keep a reference to a result it made.
    public var pushedValue: LuaValue {
        lua_gettop(L) > count ? state.value(at: -1, in: L) : .nil
    }

    /// The Swift object of type `T` inside argument `position`, a userdata
    /// pushed as `typeName` (see ``LuaState/pushObject(_:type:)``).
    ///
    /// - Throws: a `LuaError` of kind `.typeMismatch` (a bad-argument error) when the argument is not a
    ///   userdata holding a `T`, or its object was released by its finalizer.
    @inlinable
    public func object<T: AnyObject>(_ position: Int32, as type: T.Type, typeName: String) throws -> T {
        if let raw = fh_to_object_of_type(L, position, swiftTypeIdentity(T.self)) {
            return unsafeDowncast(Unmanaged<AnyObject>.fromOpaque(raw).takeUnretainedValue(), to: T.self)
        }
        return try objectChecked(position, as: T.self, typeName: typeName)
    }

    /// The slow check: by metatable name, then a dynamic cast (subclasses).
    @usableFromInline
    func objectChecked<T: AnyObject>(_ position: Int32, as type: T.Type, typeName: String) throws -> T {
        guard let raw = fh_to_object(L, position, typeName), let object = exactly(T.self, raw) else {
            if self.typeName(position) == typeName {
                // Its metatable says it is one, but its object is gone: released by its finalizer.
                throw argumentError(position, "\(typeName) expected, got a released \(typeName) (its finalizer has run)")
            }
            throw typeError(position, expected: typeName)
        }
        return object
    }

    /// Runs `body` with a method's receiver as an exported type `T`. (When
    /// the trampoline handed the receiver over, it is lent to `body` without
    /// a retain: argument 1 keeps it alive for the call.) Internal, like
    /// `LuaState.methodFunction`: the trampoline checked the receiver against
    /// the class the method was made for, and only `LuaClass` pairs the two.
    @inlinable
    func withReceiver<T: LuaExportable, R>(as type: T.Type, _ body: (T) throws -> R) throws -> R {
        if let receiver {
            return try Unmanaged<T>.fromOpaque(receiver)._withUnsafeGuaranteedRef(body)
        }
        return try body(objectChecked(1, as: T.self, typeName: T.luaTypeName))
    }


    // MARK: Results

    /// Pushes a Lua integer as a result.
    @inlinable public func push(_ value: Int) { lua_pushinteger(L, lua_Integer(value)) }
    /// Pushes a Lua float as a result.
    @inlinable public func push(_ value: Double) { lua_pushnumber(L, value) }
    /// Pushes a Lua boolean as a result.
    @inlinable public func push(_ value: Bool) { lua_pushboolean(L, value ? 1 : 0) }
    /// Pushes a Lua string of the UTF-8 bytes as a result.
    public func push(_ value: String) { state.pushBytes(Array(value.utf8), in: L) }
    /// Pushes `nil` as a result.
    public func pushNil() { lua_pushnil(L) }
    /// Pushes argument `position` again, as it is.
    public func pushArgument(_ position: Int32) { lua_pushvalue(L, position) }
    /// Pushes any value (throws for a reference from another state).
    ///
    /// - Throws: a `LuaError` of kind `.closed` when `value` is a reference from another (or a closed) state.
    public func push(_ value: LuaValue) throws { try state.push(value, in: L) }

    /// Marks the result just pushed as one to remember (a memoizing method).
    func pushMemoMarker() { fh_push_memo_marker(L) }

    /// Makes room for `count` more results.
    ///
    /// - Throws: a `LuaError` of kind `.memory` (`stack overflow`) when the stack cannot grow by `count` (it
    ///   never can by 1,000,000 or more).
    public func reserve(_ count: Int) throws { try state.reserve(count, in: L) }

    // MARK: Bound values

    /// Replaces the last `count` values pushed with `function` (a Swift
    /// function made by ``LuaState/frameFunction(_:_:)``) bound to them: a
    /// Lua function that runs the same Swift code, which reads them with
    /// ``bound(_:)``. Binding makes no Swift closure and no userdata, so it
    /// suits a function returned per call (`register "Key" { … }`).
    ///
    /// ```swift
    /// let greet = try lua.frameFunction("greet") { f in
    ///     f.push("hello, " + (f.boundString(1) ?? "?")); return 1
    /// }
    /// try lua.registerFrame("greeter") { f in
    ///     f.push(try f.string(1))
    ///     try f.pushBound(greet, values: 1)
    ///     return 1
    /// }
    /// // greeter("ann")()  →  "hello, ann"
    /// ```
    ///
    /// - Throws: a `LuaError` of kind `.typeMismatch` when `count` is outside 0…250 or more than was pushed,
    ///   or `function` is no Swift function (the values are then popped); `.closed` if it is another state's.
    public func pushBound(_ function: LuaFunction, values count: Int32) throws {
        guard count >= 0, count <= 250, count <= lua_gettop(L) - self.count else {
            throw LuaError(.typeMismatch, "cannot bind \(count) values to a function")
        }
        try reserve(2)
        try state.push(.function(function), in: L)
        lua_rotate(L, -(count + 1), 1)                    // the function below its values
        guard fh_push_bound(L, count) != 0 else {
            throw LuaError(.typeMismatch, "only a Swift function can be bound to values")
        }
    }

    /// Bound value `index` (1-based) of the running function (see
    /// ``pushBound(_:values:)``); `.nil` if it has none there.
    public func bound(_ index: Int32) -> LuaValue {
        guard calledFromLua, index >= 1, index <= 250 else { return .nil }
        return state.value(at: fh_bound_index(index), in: L)
    }

    /// Bound value `index` as text, if it is a string of valid UTF-8.
    public func boundString(_ index: Int32) -> String? {
        boundBytes(index).flatMap { String(validating: $0, as: UTF8.self) }
    }

    /// Bound value `index`'s bytes, if it is a string (valid while it stays bound).
    private func boundBytes(_ index: Int32) -> UnsafeRawBufferPointer? {
        guard calledFromLua, index >= 1, index <= 250 else { return nil }
        let slot = fh_bound_index(index)
        guard lua_type(L, slot) == LUA_TSTRING else { return nil }
        var length = 0
        guard let chars = fh_tolstring(L, slot, &length) else { return nil }
        return UnsafeRawBufferPointer(start: chars, count: length)
    }

    /// Bound value `index` as a string, if it is one — `cache`'s string when
    /// it spells the same bytes (the file of a declaration's origin, say:
    /// the same long name for every declaration in a file, which would
    /// otherwise be a new Swift string each time).
    ///
    /// ```swift
    /// let files = LuaStringCache()
    /// let file = frame.boundString(2, reusing: files)
    /// ```
    public func boundString(_ index: Int32, reusing cache: LuaStringCache) -> String? {
        boundBytes(index).flatMap(cache.validString)
    }

    /// Bound value `index` as an integer, if it is one.
    public func boundInteger(_ index: Int32) -> Int? {
        guard calledFromLua, index >= 1, index <= 250 else { return nil }
        let slot = fh_bound_index(index)
        guard lua_type(L, slot) == LUA_TNUMBER, lua_isinteger(L, slot) != 0 else { return nil }
        return Int(lua_tointegerx(L, slot, nil))
    }

    // MARK: Errors

    /// Whether a `__gc` finalizer or a debug hook is running this call (it
    /// then runs inside whatever call the collector or hook interrupted,
    /// without being that call's own).
    public var isInsideFinalizerOrHook: Bool { fh_in_finalizer_or_hook(L) != 0 }

    /// "chunk:line: " of the Lua code `level` calls up (1: this function's
    /// caller), or "" where that is C.
    public func location(level: Int32 = 1) -> String {
        fh_where(L, level)
        defer { fh_pop(L, 1) }
        var length = 0
        guard let chars = fh_tolstring(L, -1, &length) else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: chars, count: length), as: UTF8.self)
    }

    /// The chunk and line of the Lua code `level` calls up (1: this
    /// function's caller), as ``location(level:)`` shows them (`chunk:line: `);
    /// nil where that is C. Cheaper than parsing the location: no string is
    /// made for the same chunk as the last call's.
    public func position(level: Int32 = 1) -> (chunk: String, line: Int)? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer -> (chunk: String, line: Int)? in
            guard let base = buffer.baseAddress else { return nil }
            var length = 0
            let line = fh_position(L, level, base, &length)
            guard line > 0 else { return nil }
            let bytes = UnsafeRawBufferPointer(start: base, count: min(length, 64))
            return (state.chunkName(bytes), Int(line))
        }
    }

    /// `bad argument #n to 'name' (T expected, got U)`, as Lua's auxlib words it.
    public func typeError(_ position: Int32, expected: String) -> LuaError {
        let got = typeName(position)
        return argumentError(position, "\(expected) expected, got \(got)", problem: .wrongType(expected: expected, got: got))
    }

    /// `bad argument #n to 'name' (detail)`. Called as a method
    /// (`cache:set(k, v)`), self is not counted, as in Lua's own messages
    /// (luaL_argerror): the first argument after self is #1, and a bad self
    /// is "calling 'name' on bad self". The error carries the argument
    /// (``LuaError/argument``) and `problem` in parts, so that code which
    /// rewords it never parses its text.
    public func argumentError(_ position: Int32, _ detail: String, kind: LuaError.Kind = .typeMismatch,
                              problem: LuaError.Problem? = nil) -> LuaError {
        let message = fh_called_as_method(L) == 0 ? "bad argument #\(position) to '\(name)' (\(detail))"
            : position == 1 ? "calling '\(name)' on bad self (\(detail))"
            : "bad argument #\(position - 1) to '\(name)' (\(detail))"
        return LuaError.badArgument(kind, message, function: name, position: Int(position), detail: detail, problem: problem)
    }
}

/// The identity of a Swift class, as object userdata carry it.
@inlinable
func swiftTypeIdentity(_ type: AnyObject.Type) -> UnsafeRawPointer {
    unsafeBitCast(type, to: UnsafeRawPointer.self)
}

/// The object at `raw` as a `T`: an exact class match is a pointer compare,
/// anything else (a subclass) takes the dynamic cast.
@inline(__always)
func exactly<T: AnyObject>(_ type: T.Type, _ raw: UnsafeMutableRawPointer) -> T? {
    let object = Unmanaged<AnyObject>.fromOpaque(raw).takeUnretainedValue()
    if ObjectIdentifier(Swift.type(of: object)) == ObjectIdentifier(T.self) { return unsafeDowncast(object, to: T.self) }
    return object as? T
}

extension LuaState {
    /// A Lua function that runs `body` on its stack frame. `name` is used in
    /// argument errors.
    ///
    /// - Throws: a `LuaError` of kind `.closed` when the state is closed.
    public func frameFunction(_ name: String, _ body: @escaping LuaFrameFunction) throws -> LuaFunction {
        try pushSwiftFunction(SwiftFunctionBox(name: name, frame: body))
    }

    /// A method of class `receiver`: like ``frameFunction(_:_:)``, but the
    /// trampoline hands an argument 1 of exactly that class straight to
    /// `LuaFrame.withReceiver(as:_:)`, which must name the same class.
    func methodFunction(_ name: String, receiver: AnyObject.Type,
                               _ body: @escaping LuaFrameFunction) throws -> LuaFunction {
        try pushSwiftFunction(SwiftFunctionBox(name: name, frame: body), receiverType: swiftTypeIdentity(receiver))
    }

    /// Makes `body` callable from Lua as the global `name`.
    ///
    /// - Throws: a `LuaError` when the state is closed, or when the state is
    ///   out of memory (or over its limit) and cannot make the function.
    public func registerFrame(_ name: String, _ body: @escaping LuaFrameFunction) throws {
        try setGlobal(name, .function(frameFunction(name, body)))
    }
}

extension LuaFrame {
    /// Whether an error raised by this call would be caught by the script — a
    /// `pcall` or `xpcall` of the script's is on the calling thread's stack —
    /// rather than end the script.
    ///
    /// ```swift
    /// if frame.errorIsCaughtByScript { throw error }     // the script expects it: raise as usual
    /// ```
    public var errorIsCaughtByScript: Bool { fh_error_caught_by_script(L) != 0 }
}
